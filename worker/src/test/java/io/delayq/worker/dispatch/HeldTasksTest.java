package io.delayq.worker.dispatch;

import io.delayq.handler.Task;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.CancelResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tasks claimed ahead of their due time (DELAYQ_CLAIM_AHEAD) wait in the worker outside the handler slots
 * and start only once the Redis server's clock reads their due time; meanwhile they are in flight (cancel answers
 * so), and a stopping worker runs them rather than leaving them to their lease.
 */
class HeldTasksTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "held";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    /** What a handler saw when it started: the task and the Redis server's clock (TIME) at that moment. */
    record Start(String id, long dueAt, long serverMillis) {
    }

    private final List<Start> starts = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

    private void record(Task task) {
        List<String> time = get(queue.redis().time());
        long serverMillis = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        starts.add(new Start(task.id(), task.dueAt(), serverMillis));
        runs.computeIfAbsent(task.id(), k -> new AtomicInteger()).incrementAndGet();
    }

    private long serverMillis() {
        List<String> time = get(queue.redis().time());
        return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
    }

    private Map<String, String> env(int concurrency) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put(WorkerSettings.LEASE.name(), "30s");
        env.put(WorkerSettings.CLAIM_AHEAD.name(), "3s");
        env.put(WorkerSettings.CONCURRENCY.name(), String.valueOf(concurrency));
        env.put(WorkerSettings.SHUTDOWN_GRACE.name(), "20s");
        return env;
    }

    /** Ten tasks due together at {@code laterMs} from now, behind one due at {@code firstMs}: its claim takes them ahead. */
    private long enqueueFirstAndTen(long firstMs, long laterMs) {
        Instant later = Instant.now().plusMillis(laterMs);
        for (int i = 0; i < 10; i++) {
            queue.client().enqueue(TaskSpec.of("later-" + i).at(later));
        }
        queue.client().enqueue(TaskSpec.of("first").after(Duration.ofMillis(firstMs)));
        return later.toEpochMilli();
    }

    private long inflight() {
        return queue.inFlight(0).size();
    }

    @Test
    void aHeldTaskStartsOnlyOnceTheServerClockReadsItsDueTimeEvenWithTheWallClockAnHourFast() {
        WorkerConfig config = WorkerConfig.fromEnv(env(2));
        // the worker's own clock says it is an hour later: trusting it would fire everything at once
        Worker w = Worker.start(config, r -> new HandlerDelivery(this::record), () -> System.currentTimeMillis() + 3_600_000);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 1);
            Instant base = Instant.now();
            for (int i = 0; i < 20; i++) {
                queue.client().enqueue(TaskSpec.of("t-" + i).at(base.plusMillis(400 + 25L * i)));
            }
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(20));
            assertThat(starts).hasSize(20).allSatisfy(s ->
                    assertThat(s.serverMillis()).as("server clock when %s started", s.id()).isGreaterThanOrEqualTo(s.dueAt()));
            // they came in claims of several (claimed ahead), not one claim each (protocol 3 takes whole due windows of
            // 100 ms: four of these tasks each)
            assertThat(RunningWorkers.claimBatches(w).max()).isGreaterThanOrEqualTo(3);
        } finally {
            w.close();
        }
    }

    @Test
    void heldTasksTakeNoHandlerSlotAndAreInFlightWhileTheyWait() {
        Worker w = workers.startHandler(env(1), this::record);
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 1);
        long later = enqueueFirstAndTen(300, 2500);
        // one handler slot, and all ten are claimed before they are due: they wait outside the slots
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.containsKey("first") && inflight() == 10);
        assertThat(serverMillis()).isLessThan(later);
        assertThat(runs.keySet()).containsExactly("first");
        assertThat(queue.client().cancel("later-3")).isEqualTo(CancelResult.IN_FLIGHT);
        // the claim's answer is read a moment after Redis moved them
        await().atMost(Duration.ofSeconds(5)).until(() -> w.registry().get("delayq.tasks.held").gauge().value() == 10);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(11));
        assertThat(starts).hasSize(11).allSatisfy(s -> assertThat(s.serverMillis()).isGreaterThanOrEqualTo(s.dueAt()));
        assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(w.registry().get("delayq.tasks.held").gauge().value()).isZero();
    }

    @Test
    void aStoppingWorkerRunsItsHeldTasksAtTheirDueTimeWithNothingLostOrRunTwice() {
        Worker w = workers.startHandler(env(2), this::record);
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 1);
        enqueueFirstAndTen(300, 2000);
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.containsKey("first") && inflight() == 10);
        assertThat(runs.keySet()).containsExactly("first");

        assertThat(w.shutdown(Duration.ofSeconds(20))).as("a clean stop").isTrue();
        assertThat(runs).hasSize(11);
        assertThat(runs.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        assertThat(starts).allSatisfy(s -> assertThat(s.serverMillis()).isGreaterThanOrEqualTo(s.dueAt()));
        // acked, not left in flight for a re-delivery after the lease
        assertThat(inflight()).isZero();
        assertThat(queue.waitingAt(0, 0)).isEmpty();
    }

    @Test
    void withClaimAheadOffNothingIsClaimedBeforeItIsDue() {
        Map<String, String> env = env(2);
        env.put(WorkerSettings.CLAIM_AHEAD.name(), "0s");
        Worker w = workers.startHandler(env, this::record);
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 1);
        long later = enqueueFirstAndTen(300, 2500);
        await().atMost(Duration.ofSeconds(10)).until(() -> runs.containsKey("first"));
        assertThat(queue.client().cancel("later-3")).isEqualTo(CancelResult.CANCELLED);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(10));
        assertThat(later).isLessThanOrEqualTo(starts.get(starts.size() - 1).serverMillis());
    }
}
