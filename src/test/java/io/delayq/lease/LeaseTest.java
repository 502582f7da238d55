package io.delayq.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/** ack.lua, extend.lua and reclaim.lua: fencing tokens and lease expiry. */
class LeaseTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration SHORT = Duration.ofMillis(100);
    private static final Duration LONG = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private ClaimedTask claimOne(Duration lease) {
        return q.claimOne(1, lease);
    }

    private void awaitExpiry(long token) {
        q.awaitExpiry(token);
    }

    /** The keys a queue keeps once its tasks are finished: its meta and the wake-up marker. */
    List<String> keysKeptOnceEmpty() {
        return List.of("dq:{orders}:meta", q.keys(0).marker());
    }

    @Test
    void ackFinishesManyTasksInOneCallAndForgetsThem() {
        for (String id : List.of("a", "b", "c")) {
            q.client().enqueue(TaskSpec.of(id).payload(id));
        }
        ClaimBatch b = q.claim(0, 10, LONG);
        assertThat(b.tasks()).extracting(ClaimedTask::id).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(sync(q.protocol().ack(0, b.tasks()))).containsExactly(true, true, true);
        // nothing left of them but the claim's request key (kept for a replayed claim until the lease ends)
        assertThat(q.allKeys()).filteredOn(k -> !k.startsWith("dq:{orders:0}:claim:"))
                .containsExactlyInAnyOrderElementsOf(keysKeptOnceEmpty());
        // a second ack of the same tasks is refused: they are gone
        assertThat(sync(q.protocol().ack(0, b.tasks()))).containsExactly(false, false, false);
    }

    @Test
    void ackWithAStaleTokenIsRefused() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask first = claimOne(SHORT);
        awaitExpiry(first.token());
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(1, 0));
        ClaimedTask second = claimOne(LONG);
        assertThat(second.token()).isGreaterThan(first.token());

        // the stalled first worker comes back: its ack must not finish the re-delivered task
        assertThat(q.ack(first)).containsExactly(false);
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(q.ack(second)).containsExactly(true);
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.UNKNOWN);
    }

    @Test
    void ackAnswersPerTask() {
        q.client().enqueue(TaskSpec.of("a"));
        q.client().enqueue(TaskSpec.of("b"));
        ClaimBatch b = q.claim(0, 2, LONG);
        ClaimedTask a = b.tasks().get(0);
        ClaimedTask forged = b.tasks().get(1).withToken(b.tasks().get(1).token() - 1);
        ClaimedTask unknown = new ClaimedTask(0, "nobody", 0, 1, a.token(), null);
        assertThat(sync(q.protocol().ack(0, List.of(a, forged, unknown)))).containsExactly(true, false, false);
        assertThat(q.inFlight(0).keySet()).containsExactly(b.tasks().get(1).id());
    }

    @Test
    void extendKeepsTheLeaseAndIssuesANewToken() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = claimOne(SHORT);
        List<Long> renewed = sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30)));
        assertThat(renewed).hasSize(1);
        long token = renewed.get(0);
        assertThat(token).isGreaterThan(t.token());
        assertThat(q.inFlight(0)).containsExactly(entry("a", token));

        // the original lease would be over by now; reclaim finds nothing to take back
        awaitExpiry(t.token());
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(0, 0));
        // the old token is stale for ack, retry and extend alike
        assertThat(q.ack(t)).containsExactly(false);
        assertThat(q.retry(t, Duration.ZERO, "x", 5).status()).isEqualTo(RetryResult.Status.STALE);
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30)))).containsExactly(0L);
        assertThat(q.ack(t.withToken(token))).containsExactly(true);
    }

    @Test
    void aResentExtensionAnswersItsFirstRunInsteadOfALostLease() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = claimOne(SHORT);
        List<Long> first = sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-1"));
        assertThat(first.get(0)).isGreaterThan(t.token());
        // what Lettuce does after a reconnect: the very same call again (same request id, old token)
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-1"))).isEqualTo(first);
        // a new call with the old token is a real stale extension
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofSeconds(30), "req-2"))).containsExactly(0L);
        assertThat(q.ack(t.withToken(first.get(0)))).containsExactly(true);
    }

    @Test
    void extendNeverShortensALease() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = claimOne(LONG);
        // tokens only grow, so an old token can never become current again
        assertThat(sync(q.protocol().extend(0, List.of(t), Duration.ofMillis(1)))).containsExactly(t.token());
        assertThat(q.ack(t)).containsExactly(true);
    }

    @Test
    void extendOfALostLeaseIsRefused() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = claimOne(SHORT);
        awaitExpiry(t.token());
        q.reclaim(0, 0);
        assertThat(sync(q.protocol().extend(0, List.of(t), LONG))).containsExactly(0L);
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.SCHEDULED);
    }

    @Test
    void reclaimAfterLeaseExpiryGivesTheNextAttempt() {
        q.client().enqueue(TaskSpec.of("a").payload("p"));
        ClaimedTask first = claimOne(SHORT);
        assertThat(first.attempt()).isEqualTo(1);
        // nothing to reclaim while the lease is valid
        assertThat(q.reclaim(0, 0)).isEqualTo(new Reclaimed(0, 0));
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                .until(() -> q.reclaim(0, 0).requeued() == 1);
        TaskInfo back = q.client().inspect("a");
        assertThat(back.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(back.overdue()).isTrue();
        assertThat(back.lastError()).isEqualTo("lease expired on attempt 1");
        // the marker tells sleeping workers that something is due again
        assertThat(q.zrange(q.keys(0).marker())).extracting(ScoredValue::getScore)
                .allSatisfy(s -> assertThat(s.longValue()).isLessThanOrEqualTo(back.score()));

        ClaimedTask second = claimOne(LONG);
        assertThat(second.id()).isEqualTo("a");
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(TaskRecord.decode(second.rawRecord()).payload()).isEqualTo("p");
    }

    @Test
    void reclaimDeadLettersATaskThatUsedItsAttempts() {
        q.client().enqueue(TaskSpec.of("crasher"));
        for (int attempt = 1; attempt <= 3; attempt++) {
            ClaimedTask t = claimOne(SHORT);
            assertThat(t.attempt()).isEqualTo(attempt);
            Reclaimed expected = attempt < 3 ? new Reclaimed(1, 0) : new Reclaimed(0, 1);
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10))
                    .until(() -> q.reclaim(0, 3), expected::equals);
        }
        TaskInfo dead = q.client().inspect("crasher");
        assertThat(dead.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(dead.attempts()).isEqualTo(3);
        assertThat(dead.lastError()).isEqualTo("lease expired on attempt 3 (worker died or stalled)");
        assertThat(q.claim(0, 10, LONG).tasks()).isEmpty();
    }

    @Test
    void reclaimIsBoundedByItsLimit() {
        for (int i = 0; i < 30; i++) {
            q.client().enqueue(TaskSpec.of("t" + i));
        }
        ClaimBatch b = q.claim(0, 30, SHORT);
        awaitExpiry(b.tasks().get(0).token());
        assertThat(sync(q.protocol().reclaim(0, 12, 0, DeadLetterPolicy.DEFAULT))).isEqualTo(new Reclaimed(12, 0));
        assertThat(q.inFlight(0)).hasSize(18);
        assertThat(sync(q.protocol().reclaim(0, 100, 0, DeadLetterPolicy.DEFAULT))).isEqualTo(new Reclaimed(18, 0));
    }
}
