package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
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

/** DELAYQ_GROUP_WEIGHTS reaches the claims: from a backlog of two tenants, the heavier gets its share first, and both finish. */
class GroupWeightsWorkerTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "tenants";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void aTenantOfWeightThreeGetsThreeTasksForEachOfATenantOfWeightOne() {
        long base = queue.serverNow() - 60_000;
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            // trial's tasks are due first: without weights a claim would still split them evenly
            backlog.add(TaskSpec.of("trial-" + i).at(Instant.ofEpochMilli(base + i)).group("trial"));
            backlog.add(TaskSpec.of("paying-" + i).at(Instant.ofEpochMilli(base + 1_000 + i)).group("paying"));
        }
        queue.client().enqueueAll(backlog);

        List<String> order = new CopyOnWriteArrayList<>();
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_CONCURRENCY", "1");
        env.put("DELAYQ_BATCH_SIZE", "40");
        env.put("DELAYQ_GROUP_WEIGHTS", "paying=3");
        workers.startHandler(env, task -> order.add(task.id()));

        await().atMost(Duration.ofSeconds(30)).until(() -> order.size() == 400);
        // a claim of 40 takes 30 paying and 10 trial while both wait: ~120 of the first 160 (the loop sizes some
        // claims by the slots free, and each claim's shares are rounded); equal weights would give ~80
        long payingFirst = order.subList(0, 160).stream().filter(id -> id.startsWith("paying-")).count();
        assertThat(payingFirst).isBetween(110L, 130L);
        assertThat(order).filteredOn(id -> id.startsWith("trial-")).hasSize(200);
    }
}
