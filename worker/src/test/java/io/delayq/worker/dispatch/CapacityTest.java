package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A worker claims no more than its free handler slots: the rest of a backlog stays due in Redis for others. */
class CapacityTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "bounded";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void busyHandlersLeaveTheBacklogUnclaimed() {
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            backlog.add(TaskSpec.of("task-" + i));
        }
        queue.client().enqueueAll(backlog);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_CONCURRENCY", "3");
        env.put("DELAYQ_BATCH_SIZE", "100");
        Worker w = workers.startHandler(env, task -> {
            started.incrementAndGet();
            release.await(30, TimeUnit.SECONDS);
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> started.get() == 3);
        // while the three handlers are busy, nothing more is claimed however large the batch size
        await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(queue.inFlight(0)).hasSize(3);
            assertThat(queue.waitingAt(0, 0)).hasSize(17);
            assertThat(started.get()).isEqualTo(3);
        });
        // handlers that have not finished anything earn no claim buffer: no claim took more than the free slots
        // (once they finish fast, the claim buffer may take more)
        assertThat(RunningWorkers.claimBatches(w).max()).isLessThanOrEqualTo(3.0);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(20));
    }

    @Test
    void aSaturatedWorkerRefillsInBatchesNotOneFreedSlotAtATime() {
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            backlog.add(TaskSpec.of("task-" + i));
        }
        queue.client().enqueueAll(backlog);
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_CONCURRENCY", "40");
        env.put("DELAYQ_BATCH_SIZE", "40");
        // handlers that take a little while finish one by one, each freeing one slot
        Worker w = workers.startHandler(env, task -> Thread.sleep(2));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(400));
        int refillAt = ClaimLoop.refillThreshold(40, 40);
        assertThat(refillAt).isEqualTo(10);
        // claiming at every freed slot would take hundreds of claims of one or two tasks
        long claimedTasks = Math.round(RunningWorkers.claimBatches(w).totalAmount());
        assertThat(RunningWorkers.claimBatches(w).count()).isLessThanOrEqualTo(400 / refillAt + 10);
        assertThat(claimedTasks).isEqualTo(400);
    }

    @Test
    void aSlowHandlerWithTheDefaultBatchKeepsTheBacklogInRedis() {
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            backlog.add(TaskSpec.of("task-" + i));
        }
        queue.client().enqueueAll(backlog);
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.remove("DELAYQ_CONCURRENCY"); // 16, and the default batch of 500
        Worker w = workers.startHandler(env, task -> Thread.sleep(10));
        assertThat(w.config().batchSize()).isEqualTo(io.delayq.settings.WorkerSettings.DEFAULT_BATCH_SIZE).isGreaterThan(200);

        // 16 handlers of 10 ms finish ~1,600 tasks/s: the claim buffer holds ~100 ms of that (plus the measurement's
        // bursts), never a batch: the tasks no handler can start soon stay due, for any other worker to take
        int bound = 16 + 2 * 16 * 5;
        await().during(Duration.ofMillis(400)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat((long) queue.inFlight(0).size()).isLessThanOrEqualTo(bound));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1500));
        assertThat(RunningWorkers.claimBatches(w).max()).isLessThanOrEqualTo(bound);
    }

    @Test
    void refillThresholdIsAQuarterOfTheCapacityAndAtMostHalfABatch() {
        assertThat(ClaimLoop.refillThreshold(1000, 1000)).isEqualTo(250);
        assertThat(ClaimLoop.refillThreshold(1000, 100)).isEqualTo(50);
        assertThat(ClaimLoop.refillThreshold(8, 1000)).isEqualTo(2);
        assertThat(ClaimLoop.refillThreshold(3, 100)).isEqualTo(1);
        assertThat(ClaimLoop.refillThreshold(1, 1)).isEqualTo(1);
    }

    @Test
    void aReadyShardsShareOfTheFreeSlotsNeverShrinksBelowAQuarterOfTheCapacity() {
        // 16 slots + a 400-task buffer over 16 ready shards: a batch each, not 1 task each
        assertThat(ClaimLoop.askFor(416, 16, 416, 100)).isEqualTo(100);
        // no buffer yet (handlers not measured): 16 slots over 16 shards still ask 4, not 1
        assertThat(ClaimLoop.askFor(16, 16, 16, 100)).isEqualTo(4);
        // never more than is free, nor more than a batch
        assertThat(ClaimLoop.askFor(3, 16, 416, 100)).isEqualTo(3);
        assertThat(ClaimLoop.askFor(1000, 1, 1000, 100)).isEqualTo(100);
        // few shards ready: the plain share
        assertThat(ClaimLoop.askFor(400, 2, 416, 1000)).isEqualTo(200);
    }
}
