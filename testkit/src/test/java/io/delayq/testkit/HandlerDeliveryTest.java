package io.delayq.testkit;

import io.delayq.handler.PermanentFailure;
import io.delayq.handler.RetryLater;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In-process {@link TaskHandler} delivery through a running worker: what the handler throws decides
 * between dead-letter at once, retry after its own delay, and retry with backoff until the last attempt.
 * (Moved from the worker module onto the test kit, which now does the set-up its helpers did.)
 */
class HandlerDeliveryTest {
    private static final String Q = "handlers";

    /** Every call the handler saw: task id, attempt, and the Redis server time of the call. */
    record Call(String id, int attempt, long serverMillis) {
    }

    /** The handler under test: each test gives it its behaviour; it notes every call on the Redis clock first. */
    static final class Scripted implements TaskHandler {
        final List<Call> calls = new CopyOnWriteArrayList<>();
        volatile TaskHandler behaviour = task -> { };

        @Override
        public void handle(Task task) throws Exception {
            calls.add(new Call(task.id(), task.attempt(), delayq.redisTime()));
            behaviour.handle(task);
        }
    }

    // the settings the worker module's tests start from: short polls, leases and backoffs, no jitter
    @RegisterExtension
    static DelayqTestKit<Scripted> delayq = DelayqTestKit.forHandler(Scripted::new).queue(Q).shards(2)
            .setting("DELAYQ_POLL_INTERVAL", "200ms")
            .setting("DELAYQ_RETRY_MAX_ATTEMPTS", "5")
            .setting("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms")
            .setting("DELAYQ_RETRY_BACKOFF_MAX", "400ms");

    private Worker worker(Map<String, String> extra, TaskHandler handler) {
        delayq.restartWorker(extra).behaviour = handler;
        return delayq.worker();
    }

    private List<Call> callsFor(String id) {
        return delayq.handler().calls.stream().filter(c -> c.id().equals(id)).toList();
    }

    private TaskInfo inspect(String id) {
        return delayq.client().inspect(id);
    }

    /** {@code delayq_tasks_total{outcome=...}} of the worker. */
    private static double outcomes(Worker w, String outcome) {
        Counter c = w.registry().find("delayq.tasks").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void aPermanentFailureDeadLettersAtOnce() {
        Worker w = worker(Map.of("DELAYQ_RETRY_MAX_ATTEMPTS", "5"), task -> {
            throw new PermanentFailure("order 8812 does not exist");
        });
        delayq.enqueue(TaskSpec.of("order-8812"));

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("order-8812").state() == TaskInfo.State.DEAD);
        TaskInfo dead = inspect("order-8812");
        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.lastError()).isEqualTo("PermanentFailure: order 8812 does not exist");
        assertThat(callsFor("order-8812")).hasSize(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "dead")).isEqualTo(1));
        assertThat(outcomes(w, "retried")).isZero();
    }

    @Test
    void retryLaterReschedulesByItsOwnDelayNotTheBackoff() {
        Worker w = worker(Map.of("DELAYQ_RETRY_BACKOFF_INITIAL", "1s", "DELAYQ_RETRY_BACKOFF_MAX", "1s"), task -> {
            if (task.id().equals("far")) {
                throw new RetryLater("bank closed until tomorrow", Duration.ofMinutes(10));
            }
            if (task.attempt() == 1) {
                throw new RetryLater("gateway busy", Duration.ofMillis(400));
            }
        });
        delayq.enqueue(TaskSpec.of("far"));
        delayq.enqueue(TaskSpec.of("near"));

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("far"),
                t -> t.state() == TaskInfo.State.SCHEDULED && t.attempts() == 1);
        TaskInfo far = inspect("far");
        long calledAt = callsFor("far").get(0).serverMillis();
        assertThat(far.score()).isBetween(calledAt + Duration.ofMinutes(10).toMillis(), calledAt + Duration.ofMinutes(10).toMillis() + 5000);
        assertThat(far.lastError()).isEqualTo("RetryLater: bank closed until tomorrow");

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("near").state() == TaskInfo.State.UNKNOWN);
        List<Call> near = callsFor("near");
        assertThat(near).extracting(Call::attempt).containsExactly(1, 2);
        assertThat(near.get(1).serverMillis() - near.get(0).serverMillis()).isGreaterThanOrEqualTo(400);
        assertThat(outcomes(w, "retried")).isEqualTo(2);
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
    }

    @Test
    void anOrdinaryExceptionRetriesWithGrowingBackoffThenDiesAfterTheLastAttempt() {
        Worker w = worker(Map.of("DELAYQ_RETRY_MAX_ATTEMPTS", "4", "DELAYQ_RETRY_BACKOFF_INITIAL", "100ms",
                "DELAYQ_RETRY_BACKOFF_MULTIPLIER", "2", "DELAYQ_RETRY_BACKOFF_MAX", "250ms"), task -> {
            throw new IllegalStateException("payment gateway timed out (attempt " + task.attempt() + ")");
        });
        delayq.enqueue(TaskSpec.of("payout-3"));

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("payout-3").state() == TaskInfo.State.DEAD);
        TaskInfo dead = inspect("payout-3");
        assertThat(dead.attempts()).isEqualTo(4);
        assertThat(dead.lastError()).isEqualTo("IllegalStateException: payment gateway timed out (attempt 4)");
        List<Call> seen = callsFor("payout-3");
        assertThat(seen).extracting(Call::attempt).containsExactly(1, 2, 3, 4);
        // backoffs 100 ms, 200 ms, then capped at 250 ms, counted on the Redis clock from each failure
        assertThat(seen.get(1).serverMillis() - seen.get(0).serverMillis()).isGreaterThanOrEqualTo(100);
        assertThat(seen.get(2).serverMillis() - seen.get(1).serverMillis()).isGreaterThanOrEqualTo(200);
        assertThat(seen.get(3).serverMillis() - seen.get(2).serverMillis()).isGreaterThanOrEqualTo(250);
        await().untilAsserted(() -> {
            assertThat(outcomes(w, "retried")).isEqualTo(3);
            assertThat(outcomes(w, "dead")).isEqualTo(1);
        });
    }

    @Test
    void aHandlerThatThrowsAnErrorIsRetriedLikeAnyFailureAndDoesNotStrandTheTask() {
        Worker w = worker(Map.of(), task -> {
            if (task.attempt() == 1) {
                throw new AssertionError("handler bug: unexpected state");
            }
        });
        delayq.enqueue(TaskSpec.of("order-5"));

        await().atMost(Duration.ofSeconds(10)).until(() -> inspect("order-5").state() == TaskInfo.State.UNKNOWN);
        assertThat(callsFor("order-5")).extracting(Call::attempt).containsExactly(1, 2);
        assertThat(outcomes(w, "retried")).isEqualTo(1);
        await().untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
    }

    @Test
    void aHandlerGetsThePayloadAttemptAndDueTimeOfItsTask() {
        List<Task> seen = new CopyOnWriteArrayList<>();
        worker(Map.of(), seen::add);
        long due = delayq.redisTime() - 50;
        delayq.enqueue(TaskSpec.of("order-42").at(java.time.Instant.ofEpochMilli(due)).payload("{\"a\":1}").priority(2));

        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
        Task t = seen.get(0);
        assertThat(t.id()).isEqualTo("order-42");
        assertThat(t.queue()).isEqualTo(Q);
        assertThat(t.shard()).isEqualTo(delayq.client().protocol().shardOf("order-42"));
        assertThat(t.attempt()).isEqualTo(1);
        assertThat(t.dueAt()).isEqualTo(due);
        assertThat(t.payload()).isEqualTo("{\"a\":1}");
        assertThat(t.priority()).isEqualTo(2);
        assertThat(t.enqueuedAt()).isNotNull();
    }
}
