package io.delayq.worker.controls;

import io.delayq.handler.PermanentFailure;
import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Per-task expiry, attempts and backoff, applied by a real worker on a real Redis. */
class TaskControlsTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "coupons";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();

    private Map<String, String> env() {
        return RunningWorkers.env(redis.url(), Q, 2); // worker: 5 attempts, backoff 100ms..400ms, no jitter
    }

    /** Schedules {@code spec} due 200 ms from now on the Redis clock and waits, with no worker running, until {@code expiresAt} passed. */
    private void scheduleAndLetExpire(String id, ExpiryAction action) {
        long now = queue.serverNow();
        long expires = now + 400;
        queue.client().enqueue(TaskSpec.of(id).payload("10% off").at(Instant.ofEpochMilli(now + 200))
                .expiresAt(Instant.ofEpochMilli(expires), action));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> queue.serverNow() > expires);
    }

    private double expired(Worker w, String action) {
        Counter c = w.registry().find("delayq.tasks.expired").tag("action", action).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aTaskNotStartedByItsExpiryIsDeadLetteredAsExpiredWithoutRunning() {
        scheduleAndLetExpire("coupon-C-9", ExpiryAction.DEAD_LETTER);
        queue.client().enqueue(TaskSpec.of("coupon-C-10").payload("fresh").expiresAt(Instant.now().plus(Duration.ofHours(1))));
        Worker w = workers.startHandler(env(), task -> ran.add(task.id()));

        await().atMost(WAIT).until(() -> queue.client().inspect("coupon-C-9").state() == TaskInfo.State.DEAD);
        TaskInfo info = queue.client().inspect("coupon-C-9");
        assertThat(info.lastError()).startsWith("expired: not started by its expiresAt ").contains("(attempt 1 claimed ");
        await().atMost(WAIT).until(() -> ran.contains("coupon-C-10"));
        assertThat(ran).containsExactly("coupon-C-10");
        await().atMost(WAIT).until(() -> expired(w, "dead") == 1);
        assertThat(RunningWorkers.outcomes(w, "dead")).isEqualTo(1);
        assertThat(expired(w, "discard")).isZero();
    }

    @Test
    void aTaskThatAsksToBeDiscardedIsGoneWithoutRunning() {
        scheduleAndLetExpire("reminder-1", ExpiryAction.DISCARD);
        Worker w = workers.startHandler(env(), task -> ran.add(task.id()));

        await().atMost(WAIT).until(() -> expired(w, "discard") == 1);
        await().atMost(WAIT).until(() -> queue.client().inspect("reminder-1").state() == TaskInfo.State.UNKNOWN);
        assertThat(ran).isEmpty();
        assertThat(queue.storedRecord("reminder-1")).isNull();
        assertThat(RunningWorkers.outcomes(w, "dead")).isZero();
    }

    @Test
    void aTaskThatExpiresWhileBeingRetriedIsNotRunAgain() {
        long now = queue.serverNow();
        long expires = now + 1_500;
        queue.client().enqueue(TaskSpec.of("flash-sale").payload("p").expiresAt(Instant.ofEpochMilli(expires))
                .backoff(Duration.ofSeconds(2), Duration.ofSeconds(2), 1));
        workers.startHandler(env(), task -> {
            attempts.computeIfAbsent(task.id(), k -> new CopyOnWriteArrayList<>()).add(task.attempt());
            throw new IllegalStateException("gateway down");
        });

        await().atMost(WAIT).until(() -> queue.client().inspect("flash-sale").state() == TaskInfo.State.DEAD);
        assertThat(attempts.get("flash-sale")).containsExactly(1);
        assertThat(queue.client().inspect("flash-sale").lastError()).startsWith("expired: ").contains("attempt 2 claimed");
    }

    @Test
    void perTaskMaxAttemptsOverrideTheWorkersInBothDirections() {
        queue.client().enqueue(TaskSpec.of("notify-1").payload("p").maxAttempts(2));
        queue.client().enqueue(TaskSpec.of("capture-1").payload("p").maxAttempts(7).backoff(Duration.ofMillis(10), Duration.ofMillis(10), 1));
        queue.client().enqueue(TaskSpec.of("plain-1").payload("p").backoff(Duration.ofMillis(10), Duration.ofMillis(10), 1));
        workers.startHandler(env(), task -> {
            attempts.computeIfAbsent(task.id(), k -> new CopyOnWriteArrayList<>()).add(task.attempt());
            throw new IllegalStateException("declined");
        });

        for (String id : List.of("notify-1", "capture-1", "plain-1")) {
            await().atMost(WAIT).until(() -> queue.client().inspect(id).state() == TaskInfo.State.DEAD);
        }
        assertThat(attempts.get("notify-1")).containsExactly(1, 2);
        assertThat(attempts.get("capture-1")).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(attempts.get("plain-1")).containsExactly(1, 2, 3, 4, 5); // the worker's DELAYQ_RETRY_MAX_ATTEMPTS
    }

    @Test
    void perTaskBackoffReplacesTheWorkersDelay() {
        List<Long> failedAt = new CopyOnWriteArrayList<>();
        queue.client().enqueue(TaskSpec.of("slow-retry").payload("p").backoff(Duration.ofSeconds(3), Duration.ofSeconds(3), 1));
        workers.startHandler(env(), task -> {
            failedAt.add(queue.serverNow());
            throw new IllegalStateException("not yet");
        });

        await().atMost(WAIT).until(() -> !failedAt.isEmpty() && queue.client().inspect("slow-retry").state() == TaskInfo.State.SCHEDULED);
        long wait = queue.client().inspect("slow-retry").score() - failedAt.get(0);
        // the worker's own backoff would be 100 ms
        assertThat(wait).isBetween(2_900L, 3_200L);
    }

    @Test
    void aPermanentFailureStillDeadLettersAtOnceWhateverTheTaskAllows() {
        queue.client().enqueue(TaskSpec.of("unknown-order").payload("p").maxAttempts(10));
        workers.startHandler(env(), task -> {
            attempts.computeIfAbsent(task.id(), k -> new CopyOnWriteArrayList<>()).add(task.attempt());
            throw new PermanentFailure("no such order");
        });
        await().atMost(WAIT).until(() -> queue.client().inspect("unknown-order").state() == TaskInfo.State.DEAD);
        assertThat(attempts.get("unknown-order")).containsExactly(1);
    }

    @Test
    void aHandWrittenRecordWithABadControlIsDeadLetteredAtOnceNamingTheField() {
        String id = "raw-1";
        int shard = queue.shardOf(id);
        get(queue.redis().hset(queue.keys(shard).record(id), id, "{\"payload\":\"p\",\"maxAttempts\":-3}"));
        get(queue.redis().zadd(queue.keys(shard).due(0), queue.serverNow() - 1000, id));
        String ok = "raw-2";
        int okShard = queue.shardOf(ok);
        get(queue.redis().hset(queue.keys(okShard).record(ok), ok,
                "{\"payload\":\"p\",\"maxAttempts\":3,\"expiresAt\":" + (queue.serverNow() + 3_600_000) + ",\"onExpiry\":\"discard\"}"));
        get(queue.redis().zadd(queue.keys(okShard).due(0), queue.serverNow() - 1000, ok));
        Worker w = workers.startHandler(env(), task -> ran.add(task.id()));

        await().atMost(WAIT).until(() -> queue.client().inspect(id).state() == TaskInfo.State.DEAD);
        assertThat(queue.client().inspect(id).lastError()).isEqualTo("task record field 'maxAttempts' must be 1 to 1000, got -3");
        assertThat(queue.client().inspect(id).attempts()).isEqualTo(1);
        await().atMost(WAIT).until(() -> ran.contains(ok));
        assertThat(ran).containsExactly(ok);
        assertThat(w.registry().find("delayq.tasks.malformed").counter().count()).isEqualTo(1);
    }
}
