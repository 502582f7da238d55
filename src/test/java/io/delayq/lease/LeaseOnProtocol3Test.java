package io.delayq.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Leases on a queue recorded as protocol 3 (p3/ack.lua, p3/extend.lua, p3/reclaim.lua): a claim renames whole buckets
 * into flight, and the in-flight bucket's name is the fence, not a per-task token.
 */
class LeaseOnProtocol3Test extends LeaseTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** Also the claim counter, whose value makes every in-flight name unique: it outlives the tasks. */
    @Override
    List<String> keysKeptOnceEmpty() {
        return List.of("dq:{orders}:meta", q.keys(0).marker(), "dq:{orders:0}:seq");
    }

    @Override
    @Test
    @DisplayName("on protocol 3 an ack answers per task by the in-flight name it names, whatever its token")
    void ackAnswersPerTask() {
        q.client().enqueue(TaskSpec.of("a"));
        q.client().enqueue(TaskSpec.of("b"));
        ClaimBatch b = q.claim(0, 2, Duration.ofMinutes(5));
        ClaimedTask a = b.tasks().get(0).withToken(b.tasks().get(0).token() - 1);
        ClaimedTask other = b.tasks().get(1);
        ClaimedTask forged = new ClaimedTask(0, other.id(), other.dueAt(), other.attempt(), other.token(), other.rawRecord(),
                other.flight() + "0");
        ClaimedTask unknown = new ClaimedTask(0, "nobody", 0, 1, a.token(), null, a.flight());
        assertThat(sync(q.protocol().ack(0, List.of(a, forged, unknown)))).containsExactly(true, false, false);
        assertThat(q.inFlight(0).keySet()).containsExactly(other.id());
    }

    /** An extension moves the bucket's lease on and keeps its name, the fence: the holder's old token stays good. */
    @Override
    @Test
    @DisplayName("on protocol 3 an extension keeps the lease under the same in-flight name, so the holder's ack stays accepted")
    void extendKeepsTheLeaseAndIssuesANewToken() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = q.claimOne(1, Duration.ofMillis(100));
        long token = sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30))).get(0);
        assertThat(token).isGreaterThan(t.token());
        assertThat(q.inFlight(0)).containsExactly(entry("a", token));

        // the original lease would be over by now; reclaim finds nothing to take back
        q.awaitExpiry(t.token());
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(0, 0));
        assertThat(q.ack(t)).containsExactly(true);
    }

    /** No request id is kept: a re-sent extension moves the lease on again, never answering a lost lease. */
    @Override
    @Test
    @DisplayName("on protocol 3 an extension sent again moves the lease on again (never shorter), not a lost lease")
    void aResentExtensionAnswersItsFirstRunInsteadOfALostLease() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = q.claimOne(1, Duration.ofMillis(100));
        List<Long> first = sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-1"));
        assertThat(first.get(0)).isGreaterThan(t.token());
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-1")).get(0)).isGreaterThanOrEqualTo(first.get(0));
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-2")).get(0)).isGreaterThanOrEqualTo(first.get(0));
        assertThat(q.ack(t)).containsExactly(true);
    }

    /** The limit counts in-flight buckets, not tasks: 30 tasks of 30 windows are 30 buckets. */
    @Override
    @Test
    @DisplayName("on protocol 3 reclaim is bounded by a limit that counts in-flight buckets")
    void reclaimIsBoundedByItsLimit() {
        long now = q.serverNow();
        for (int i = 0; i < 30; i++) {
            q.client().enqueue(TaskSpec.of("t" + i).at(Instant.ofEpochMilli(now - 60_000 + i * 1_000L)));
        }
        ClaimBatch b = q.claim(0, 30, Duration.ofMillis(100));
        assertThat(b.tasks()).hasSize(30);
        q.awaitExpiry(b.tasks().get(0).token());
        assertThat(sync(q.protocol().reclaim(0, 12, 0, DeadLetterPolicy.DEFAULT))).isEqualTo(new Reclaimed(12, 0));
        assertThat(q.inFlight(0)).hasSize(18);
        assertThat(sync(q.protocol().reclaim(0, 100, 0, DeadLetterPolicy.DEFAULT))).isEqualTo(new Reclaimed(18, 0));
    }
}
