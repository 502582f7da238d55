package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** With a backlog of due tasks, a worker handles higher priority levels first, each level by due time. */
class PriorityTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "ranked";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void higherPriorityTasksAreHandledFirstFromABacklog() {
        long base = queue.serverNow() - 60_000;
        List<TaskSpec> backlog = new ArrayList<>();
        // the low levels are due earliest, so a first-due-first-served worker would get this wrong
        for (int i = 0; i < 5; i++) {
            backlog.add(TaskSpec.of("normal-" + i).at(Instant.ofEpochMilli(base + i)).priority(0));
            backlog.add(TaskSpec.of("high-" + i).at(Instant.ofEpochMilli(base + 100 + i)).priority(1));
            backlog.add(TaskSpec.of("highest-" + i).at(Instant.ofEpochMilli(base + 200 + i)).priority(2));
        }
        queue.client().enqueueAll(backlog);

        List<String> order = new CopyOnWriteArrayList<>();
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_CONCURRENCY", "1");
        env.put("DELAYQ_BATCH_SIZE", "1");
        workers.startHandler(env, task -> order.add(task.id()));

        await().atMost(Duration.ofSeconds(15)).until(() -> order.size() == 15);
        // by level; within a level protocol 3 hands a due window's tasks out in no particular order
        assertThat(order.stream().map(id -> id.substring(0, id.indexOf('-'))).toList()).containsExactly(
                "highest", "highest", "highest", "highest", "highest",
                "high", "high", "high", "high", "high",
                "normal", "normal", "normal", "normal", "normal");
    }
}
