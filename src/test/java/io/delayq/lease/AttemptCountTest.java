package io.delayq.lease;

import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.browse.BrowsedTask;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Attempts are kept off the happy path: ATTEMPTS holds the attempts that ended without an ack (retry, lease
 * expiry, dead-lettering), a claim hands out that + 1 without writing, and an ack deletes the count only for a
 * task claimed with an attempt > 1. What a handler, inspect, browse and the dead-letter list see is unchanged.
 */
class AttemptCountTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration SHORT = Duration.ofMillis(100);
    private static final Duration LONG = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private ClaimedTask claimOne(Duration lease) {
        return q.claimOne(10, lease);
    }

    private boolean countsKept(String id) {
        return get(q.redis().hexists(q.keys(0).attempts(), id)) || get(q.redis().hexists(q.keys(0).errors(), id));
    }

    @Test
    void aTaskThatFailsTwiceAndIsThenAckedReportsAttemptsOneTwoThreeAndLeavesNothingBehind() {
        q.client().enqueue(TaskSpec.of("a").payload("p"));
        List<Integer> seen = new ArrayList<>();
        ClaimedTask t = claimOne(LONG);
        seen.add(t.attempt());
        assertThat(countsKept("a")).as("a first attempt writes no count").isFalse();
        assertThat(q.retry(t, Duration.ZERO, "boom 1", 5).status()).isEqualTo(RetryResult.Status.RETRIED);
        assertThat(q.client().inspect("a").attempts()).as("waiting after one failure").isEqualTo(1);

        t = claimOne(LONG);
        seen.add(t.attempt());
        assertThat(q.client().inspect("a").attempts()).as("in flight: the attempt it is on").isEqualTo(2);
        assertThat(q.retry(t, Duration.ZERO, "boom 2", 5).status()).isEqualTo(RetryResult.Status.RETRIED);
        TaskInfo waiting = q.client().inspect("a");
        assertThat(waiting.attempts()).isEqualTo(2);
        assertThat(waiting.lastError()).isEqualTo("boom 2");

        t = claimOne(LONG);
        seen.add(t.attempt());
        assertThat(seen).containsExactly(1, 2, 3);
        assertThat(q.ack(t)).containsExactly(true);
        assertThat(countsKept("a")).as("the ack of attempt 3 deletes its count and last error").isFalse();
        assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(q.allKeys()).as("nothing of the task is left").doesNotContain(q.keys(0).attempts(), q.keys(0).errors());
    }

    @Test
    void aLeaseExpiryCountsAsAnAttemptAndTheNextClaimReportsTheNextOne() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask first = claimOne(SHORT);
        assertThat(first.attempt()).isEqualTo(1);
        q.awaitExpiry(first.token());
        assertThat(q.reclaim(0, 5)).isEqualTo(new Reclaimed(1, 0));
        TaskInfo back = q.client().inspect("a");
        assertThat(back.attempts()).isEqualTo(1);
        assertThat(back.lastError()).isEqualTo("lease expired on attempt 1");

        ClaimedTask second = claimOne(LONG);
        assertThat(second.attempt()).isEqualTo(2);
        // the stalled first holder's ack is stale and deletes nothing of the second attempt
        assertThat(q.ack(first)).containsExactly(false);
        assertThat(q.client().inspect("a").attempts()).isEqualTo(2);
        assertThat(q.ack(second)).containsExactly(true);
        assertThat(countsKept("a")).isFalse();
    }

    @Test
    void aWorkerKilledMidTaskLeavesItsAttemptCountedForTheNextClaim() {
        q.client().enqueue(TaskSpec.of("a"));
        // the "worker": its own client and connection, gone (no ack, no retry) while the task is in flight
        try (TestQueue victim = TestQueue.open(redis.url(), "orders", 1)) {
            ClaimedTask held = sync(victim.protocol().claim(0, 10, SHORT, RateLimit.NONE)).tasks().get(0);
            assertThat(held.attempt()).isEqualTo(1);
            assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        }
        // any live worker's lease sweep takes it back once the lease is over
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> q.reclaim(0, 5).requeued() == 1);
        ClaimedTask next = claimOne(LONG);
        assertThat(next.attempt()).isEqualTo(2);
        assertThat(q.ack(next)).containsExactly(true);
        assertThat(countsKept("a")).isFalse();
    }

    @Test
    void aTaskStillReachesTheDeadLetterSetAtMaxAttemptsWhetherItFailsOrItsLeasesExpire() {
        q.client().enqueue(TaskSpec.of("fails"));
        for (int attempt = 1; attempt <= 3; attempt++) {
            ClaimedTask t = claimOne(LONG);
            assertThat(t.attempt()).isEqualTo(attempt);
            RetryResult r = q.retry(t, Duration.ZERO, "boom " + attempt, 3);
            assertThat(r.status()).isEqualTo(attempt < 3 ? RetryResult.Status.RETRIED : RetryResult.Status.DEAD);
        }
        // a task that crashes its worker every time: only lease expiries, never a retry
        q.client().enqueue(TaskSpec.of("crashes"));
        for (int attempt = 1; attempt <= 3; attempt++) {
            ClaimedTask t = claimOne(SHORT);
            assertThat(t.attempt()).isEqualTo(attempt);
            q.awaitExpiry(t.token());
            assertThat(q.reclaim(0, 3)).isEqualTo(attempt < 3 ? new Reclaimed(1, 0) : new Reclaimed(0, 1));
        }
        assertThat(q.claim(0, 10, LONG).tasks()).isEmpty();
        List<DeadLetter> dead = q.client().deadLetters(0, 0, 10).entries();
        assertThat(dead).extracting(DeadLetter::id).containsExactly("fails", "crashes");
        assertThat(dead).extracting(DeadLetter::attempts).containsExactly(3, 3);
        assertThat(dead).extracting(DeadLetter::lastError).containsExactly("boom 3", "lease expired on attempt 3 (worker died or stalled)");
    }

    @Test
    void inspectAndBrowseOfAnInFlightTaskShowTheAttemptItIsOn() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = claimOne(LONG);
        assertThat(q.client().inspect("a").attempts()).isEqualTo(1);
        q.retry(t, Duration.ZERO, "boom", 5);
        t = claimOne(LONG);
        TaskInfo info = q.client().inspect("a");
        assertThat(info.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(info.attempts()).isEqualTo(t.attempt()).isEqualTo(2);
        assertThat(info.lastError()).isEqualTo("boom");
        List<BrowsedTask> page = q.client().browse(BrowseQuery.of(BrowseState.IN_FLIGHT)).tasks();
        assertThat(page).extracting(BrowsedTask::attempts).containsExactly(2);
        q.kill(t, "gave up", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().inspect("a").attempts()).as("dead: the attempts made").isEqualTo(2);
        assertThat(q.client().browse(BrowseQuery.of(BrowseState.DEAD)).tasks()).extracting(BrowsedTask::attempts).containsExactly(2);
    }

    @Test
    void aReplayedClaimAnswersTheSameAttempts() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask a = claimOne(LONG);
        q.retry(a, Duration.ZERO, "boom", 5);
        q.client().enqueue(TaskSpec.of("b"));
        ClaimBatch first = sync(q.protocol().claim(0, 10, LONG, RateLimit.NONE, "req-1"));
        ClaimBatch again = sync(q.protocol().claim(0, 10, LONG, RateLimit.NONE, "req-1"));
        assertThat(first.tasks()).extracting(ClaimedTask::id, ClaimedTask::attempt)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("a", 2), org.assertj.core.groups.Tuple.tuple("b", 1));
        assertThat(again.tasks()).isEqualTo(first.tasks());
        assertThat(sync(q.protocol().ack(0, first.tasks()))).containsExactly(true, true);
        assertThat(countsKept("a")).isFalse();
        assertThat(countsKept("b")).isFalse();
    }
}
