package io.delayq.claim;

import io.delayq.bucket.BucketLayout;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Claims on a queue recorded as protocol 3 (p3/claim.lua): whole windows, by level. */
class ClaimOnProtocol3Test extends ClaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** A claim takes a window whole from its start, so a task may come up to a window before its due time (the worker holds it). */
    @Override
    long earliestClaimOf(long dueAt) {
        return BucketLayout.windowStart(dueAt);
    }

    /** A claim names the start of the earliest window (or minute, for a task due 10 minutes or more ahead) still waiting. */
    @Override
    long nextDueAtFor(long dueAt) {
        long span = dueAt - q.serverNow() >= BucketLayout.HORIZON_MS ? BucketLayout.COARSE_MS : BucketLayout.WINDOW_MS;
        return dueAt - dueAt % span;
    }

    /** p3/enqueue.lua's ARGV: n, then per task id, its id-index bucket, timing, ms, record, level; then the layout epoch and where. */
    @Override
    void assertSendsTheDelay(List<String> args) {
        assertThat(args.subList(args.size() - 9, args.size() - 4))
                .containsExactly("1", "in-5s", String.valueOf(BucketLayout.indexBucket("in-5s")), "in", "5000");
    }
}
