package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * DELAYQ_RATE_LIMIT holds a backlog back inside the claim. The proof uses the claim times Redis
 * itself recorded (a lease score is claim time + lease), not the machine's timing: with 20 tasks/s
 * and a burst of 1, any two claims k tasks apart are at least k × 50 ms apart on the Redis clock.
 */
class RateLimitTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "throttled";
    private static final long LEASE_MS = 30_000;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void aBacklogIsClaimedNoFasterThanTheRateLimit() {
        int n = 30;
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            backlog.add(TaskSpec.of("sms-" + i));
        }
        queue.client().enqueueAll(backlog);

        List<Long> claimedAt = new CopyOnWriteArrayList<>();
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_RATE_LIMIT", "20");
        env.put("DELAYQ_RATE_BURST", "1");
        env.put("DELAYQ_BATCH_SIZE", "100");
        env.put("DELAYQ_CONCURRENCY", "16");
        env.put("DELAYQ_LEASE", LEASE_MS + "ms");
        Worker w = workers.startHandler(env, task -> {
            claimedAt.add(queue.leaseExpiryOf(task.id()) - LEASE_MS);
        });

        await().atMost(Duration.ofSeconds(20)).until(() -> claimedAt.size() == n);
        List<Long> sorted = claimedAt.stream().sorted().toList();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(sorted.get(j) - sorted.get(i))
                        .as("claims %d and %d are %d tasks apart", i, j, j - i)
                        .isGreaterThanOrEqualTo((j - i) * 50L);
            }
        }
        assertThat(RunningWorkers.claimBatches(w).max()).as("largest claim").isEqualTo(1.0);
        assertThat(TestQueue.get(queue.redis().hgetall(queue.keys(0).rate()))).containsKeys("tokens", "at");
    }
}
