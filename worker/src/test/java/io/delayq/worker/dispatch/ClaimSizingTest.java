package io.delayq.worker.dispatch;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.micrometer.core.instrument.DistributionSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With the settings a user gets (16 shards as in the README, the default batch and concurrency), a backlog is
 * drained by claims of many tasks each, not one claim per task (16 handler slots spread over
 * 16 ready shards must not turn into one task asked of each shard).
 */
class ClaimSizingTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "sizing";
    private static final int SHARDS = 16;
    private static final int TASKS = 10_000;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, SHARDS);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void aBacklogOnSixteenShardsWithDefaultSettingsIsClaimedInLargeBatches() {
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            backlog.add(TaskSpec.of("task-" + i));
        }
        queue.client().enqueueAll(backlog);
        Map<String, Long> before = CommandCounts.of(queue.redis());
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, SHARDS);
        env.remove("DELAYQ_CONCURRENCY"); // the default, as DELAYQ_BATCH_SIZE
        Set<String> seen = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(env, task -> seen.add(task.id()));
        assertThat(w.config().concurrency()).isEqualTo(16);
        assertThat(w.config().batchSize()).isEqualTo(500);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(TASKS));
        assertThat(seen).hasSize(TASKS);
        DistributionSummary claims = RunningWorkers.claimBatches(w);
        // one claim per task took ~10,000 claims; claims of up to a batch take a few dozen, plus one empty claim per
        // shard (and smaller ones while the worker measures how fast its handlers are, which sizes the claim buffer)
        assertThat(claims.count()).isLessThanOrEqualTo(TASKS / 25);
        assertThat(Math.round(claims.totalAmount())).isEqualTo(TASKS);
        // Redis agrees: the claim script ran about as often (acks are group-committed, a few per shard)
        long scripts = CommandCounts.of(queue.redis()).getOrDefault("evalsha", 0L) - before.getOrDefault("evalsha", 0L);
        assertThat(scripts).isLessThanOrEqualTo(TASKS / 10);
    }
}
