package io.delayq.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.Priority;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/** retry.lua: backoff, ordering, dead after max attempts, permanent failures, stale tokens. */
class RetryTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    /** The earliest server time a claim may hand out a task due at {@code dueAt}: its due time. */
    long earliestClaimOf(long dueAt) {
        return dueAt;
    }

    @Test
    void retrySchedulesAfterTheBackoffOnTheServerClock() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
        long before = q.serverNow();
        RetryResult r = q.retry(t, Duration.ofSeconds(30), "HTTP 503", 5);
        long after = q.serverNow();
        assertThat(r.status()).isEqualTo(RetryResult.Status.RETRIED);
        assertThat(r.at()).isBetween(before + 30_000, after + 30_000);
        assertThat(q.waitingAt(0, 0)).containsExactly(entry("a", r.at()));
        assertThat(q.inFlight(0)).isEmpty();
        assertThat(q.zrange(q.keys(0).marker())).extracting(ScoredValue::getScore)
                .allSatisfy(s -> assertThat(s.longValue()).isLessThanOrEqualTo(r.at()));
        TaskInfo info = q.client().inspect("a");
        assertThat(info.lastError()).isEqualTo("HTTP 503");
        assertThat(info.attempts()).isEqualTo(1);
        // not claimable before its new due time
        assertThat(q.claim(0, 10, LEASE).tasks()).isEmpty();
    }

    @Test
    void retriedTasksComeBackInBackoffOrderAndNeverEarly() {
        for (String id : List.of("a", "b", "c")) {
            q.client().enqueue(TaskSpec.of(id));
        }
        Map<String, ClaimedTask> claimed = q.claim(0, 3, LEASE).tasks().stream()
                .collect(Collectors.toMap(ClaimedTask::id, Function.identity()));
        Map<String, Long> retriedAt = Map.of(
                "a", q.retry(claimed.get("a"), Duration.ofMillis(600), "e", 5).at(),
                "b", q.retry(claimed.get("b"), Duration.ofMillis(200), "e", 5).at(),
                "c", q.retry(claimed.get("c"), Duration.ofMillis(400), "e", 5).at());

        List<String> order = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5)).until(() -> {
            ClaimBatch b = q.claim(0, 1, LEASE);
            for (ClaimedTask t : b.tasks()) {
                assertThat(b.serverNow()).as("claimed at or after its due time").isGreaterThanOrEqualTo(earliestClaimOf(retriedAt.get(t.id())));
                assertThat(t.dueAt()).isEqualTo(retriedAt.get(t.id()));
                assertThat(t.attempt()).isEqualTo(2);
                order.add(t.id());
            }
            return order.size() == 3;
        });
        assertThat(order).containsExactly("b", "c", "a");
    }

    @Test
    void retryKeepsThePriorityLevel() {
        q.client().enqueue(TaskSpec.of("vip").priority(Priority.HIGHEST));
        ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
        RetryResult r = q.retry(t, Duration.ofHours(1), "e", 5);
        assertThat(q.waitingAt(0, 2)).containsExactly(entry("vip", r.at()));
    }

    @Test
    void deadAfterMaxAttempts() {
        q.client().enqueue(TaskSpec.of("a").payload("p"));
        for (int attempt = 1; attempt <= 3; attempt++) {
            ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
            assertThat(t.attempt()).isEqualTo(attempt);
            RetryResult r = q.retry(t, Duration.ZERO, "failure " + attempt, 3);
            assertThat(r.status()).isEqualTo(attempt < 3 ? RetryResult.Status.RETRIED : RetryResult.Status.DEAD);
        }
        TaskInfo info = q.client().inspect("a");
        assertThat(info.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(info.attempts()).isEqualTo(3);
        assertThat(info.lastError()).isEqualTo("failure 3");
        assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("p");
        assertThat(q.client().stats().dead()).isEqualTo(1);
        assertThat(q.claim(0, 10, LEASE).tasks()).isEmpty();
    }

    @Test
    void unlimitedAttemptsNeverDie() {
        q.client().enqueue(TaskSpec.of("a"));
        for (int attempt = 1; attempt <= 12; attempt++) {
            ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
            assertThat(q.retry(t, Duration.ZERO, "e", 0).status()).isEqualTo(RetryResult.Status.RETRIED);
        }
        assertThat(q.client().inspect("a").attempts()).isEqualTo(12);
    }

    @Test
    void permanentFailureDiesAtOnce() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
        long before = q.serverNow();
        RetryResult r = q.kill(t, "HTTP 400", DeadLetterPolicy.DEFAULT);
        assertThat(r.status()).isEqualTo(RetryResult.Status.DEAD);
        assertThat(r.at()).isBetween(before, q.serverNow());
        assertThat(q.zrange(q.keys(0).dead())).containsExactly(ScoredValue.just(r.at(), "a"));
        assertThat(q.client().inspect("a").attempts()).isEqualTo(1);
    }

    @Test
    void retryWithAStaleTokenIsRefusedAndChangesNothing() {
        q.client().enqueue(TaskSpec.of("a"));
        ClaimedTask t = q.claim(0, 1, LEASE).tasks().get(0);
        RetryResult r = sync(q.protocol().retry(t.withToken(t.token() + 1), Duration.ZERO, "e", 1, true, DeadLetterPolicy.DEFAULT));
        assertThat(r).isEqualTo(new RetryResult(RetryResult.Status.STALE, -1));
        assertThat(q.inFlight(0)).containsExactly(entry("a", t.token()));
        assertThat(q.ack(t)).containsExactly(true);
        assertThat(q.retry(t, Duration.ZERO, "e", 5).status()).isEqualTo(RetryResult.Status.STALE);
    }
}
