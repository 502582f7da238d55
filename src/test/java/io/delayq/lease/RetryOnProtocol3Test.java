package io.delayq.lease;

import io.delayq.bucket.BucketLayout;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Retries on a queue recorded as protocol 3 (p3/retry.lua): fenced by the in-flight bucket's name, not a token. */
class RetryOnProtocol3Test extends RetryTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** A claim takes a window whole from its start, so a task may come up to a window before its due time (the worker holds it). */
    @Override
    long earliestClaimOf(long dueAt) {
        return BucketLayout.windowStart(dueAt);
    }

    /** The fence is the in-flight bucket's name: a retry under the name a reclaim took away is stale and changes nothing. */
    @Override
    @Test
    @DisplayName("on protocol 3 a retry under an in-flight name a reclaim took away is refused and changes nothing")
    void retryWithAStaleTokenIsRefusedAndChangesNothing() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask lost = q.claimOne(1, Duration.ofMillis(100));
        q.awaitExpiry(lost.token());
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(1, 0));
        ClaimedTask t = q.claimOne(1, Duration.ofMinutes(5));

        assertThat(sync(q.protocol().retry(lost, Duration.ZERO, "e", 1, true, DeadLetterPolicy.DEFAULT))).isEqualTo(new RetryResult(RetryResult.Status.STALE, -1));
        assertThat(q.inFlight(0)).containsExactly(entry("a", t.token()));
        assertThat(q.ack(t)).containsExactly(true);
        assertThat(q.retry(t, Duration.ZERO, "e", 5).status()).isEqualTo(RetryResult.Status.STALE);
    }
}
