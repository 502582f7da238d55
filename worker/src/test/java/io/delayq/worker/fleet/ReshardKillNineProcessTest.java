package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.reshard.LoadHarness;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * `delayq reshard` as its own JVM, killed with SIGKILL in the middle of the move while producers, a claimer,
 * cancels and reschedules go on; a second run resumes from what Redis holds (the meta hash and the old
 * shards' `moving` batches) and finishes: nothing lost, nothing early, no repeat with attempt 1.
 */
class ReshardKillNineProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aKilledMoverIsResumedByTheNextRunAndNothingIsLost() throws Exception {
        Map<String, String> env = Map.of("DELAYQ_REDIS_URL", redis.url());
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             DelayQueueClient claimer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             LoadHarness load = new LoadHarness(producer, claimer, "order-")) {
            load.preload(30_000, 20_000, 40_000);
            load.start();
            try (WorkerProcess first = WorkerProcess.start(env, List.of("reshard", "orders", "--to", "16", "--batch", "5"))) {
                // mid-way: the migration is recorded and some tasks already sit on shards the old layout did not have
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> movedSoFar(producer) > 2000);
                first.kill9();
                assertThat(first.output()).contains("moving");
            }
            Layout stopped = DelayQueueClient.awaitStage(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(stopped.migrating()).as("killed before the end").isTrue();

            try (WorkerProcess second = WorkerProcess.start(env, List.of("reshard", "orders", "--to", "16"))) {
                assertThat(second.waitFor(Duration.ofSeconds(120))).as(second.output()).isZero();
                assertThat(second.output()).contains("resumed and finished: queue 'orders' now has 16 shards (was 4)");
            }
            load.stopProducing();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> load.missing().isEmpty());
            System.out.println("reshard kill -9 and resume: " + load.summary());
            assertThat(load.violations).as(load.summary()).isEmpty();
            Layout after = DelayQueueClient.awaitStage(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
            assertThat(after.migrating()).isFalse();
            assertThat(after.history()).containsExactly(4, 16);
        }
    }

    /** Waiting tasks on shards 4..15: what the mover has delivered so far. */
    private static long movedSoFar(DelayQueueClient c) {
        long n = 0;
        for (int s = 4; s < 16; s++) {
            n += DelayQueueClient.awaitStage(c.redis().commands().zcard(new ShardKeys("orders", s).due(0)), Duration.ofSeconds(5));
        }
        return n;
    }
}
