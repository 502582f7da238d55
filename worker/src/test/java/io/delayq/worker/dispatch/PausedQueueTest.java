package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A running worker honours a queue's pause: its claims come back empty, and the overdue tasks fire once resumed. */
class PausedQueueTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "paused";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void nothingFiresWhilePausedAndEverythingFiresOnceResumed() {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> handled.add(task.id()));
        queue.client().enqueue(TaskSpec.of("before").after(Duration.ZERO));
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("before"));

        queue.client().pause("test");
        List<String> ids = List.of("a", "b", "c", "d", "e", "f");
        ids.forEach(id -> queue.client().enqueue(TaskSpec.of(id).after(Duration.ZERO)));
        // the worker keeps claiming (every shard, at least a few rounds of 200 ms polls) and gets nothing
        long claims = RunningWorkers.claimBatches(w).count();
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= claims + 6);
        assertThat(handled).containsExactly("before");
        assertThat(queue.client().stats().due()).as("the backlog is reported while paused").isEqualTo(6);

        queue.client().resume("test");
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.containsAll(ids));
        assertThat(queue.client().stats().due()).isZero();
    }
}
