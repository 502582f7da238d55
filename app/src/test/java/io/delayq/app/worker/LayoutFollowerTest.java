package io.delayq.app.worker;

import io.delayq.worker.fleet.Fleet;
import io.delayq.client.DelayQueueClient;
import io.delayq.reshard.Mover;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker over the whole queue follows a grow in the same process: tasks on shards the old layout did not
 * have fire; a worker started later with the old DELAYQ_SHARDS starts on the recorded count; a worker with an
 * explicit range keeps its range.
 */
class LayoutFollowerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aWholeQueueWorkerServesTheNewShardsAfterAGrow() throws Exception {
        Fleet fleet = new Fleet();
        Map<String, String> env = Fleet.env(redis.url(), "grow", 4);
        LayoutFollower follower = LayoutFollower.start(new LayoutFollower.Params(env,
                c -> Worker.start(c, r -> new HandlerDelivery(fleet.recorder())), Duration.ofMillis(100)));
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("grow").shards(4).build()) {
            client.enqueue(TaskSpec.of("before"));
            await().atMost(Duration.ofSeconds(10)).until(() -> fleet.countById.containsKey("before"));

            new Mover(Mover.Params.of(client.protocol(), 16, p -> { })).run();
            await().atMost(Duration.ofSeconds(20)).until(() -> follower.shards() == 16);

            List<TaskSpec> onNewShards = new ArrayList<>();
            for (int n = 0; onNewShards.size() < 20; n++) {
                if (Sharding.shardOf("after-" + n, 16) >= 4) {
                    onNewShards.add(TaskSpec.of("after-" + n));
                }
            }
            client.enqueueAll(onNewShards);
            await().atMost(Duration.ofSeconds(20)).until(() -> onNewShards.stream().allMatch(t -> fleet.countById.containsKey(t.id())));

            LayoutFollower late = LayoutFollower.start(new LayoutFollower.Params(env,
                    c -> Worker.start(c, r -> new HandlerDelivery(fleet.recorder())), Duration.ofMillis(100)));
            assertThat(late.shards()).as("started with DELAYQ_SHARDS=4 on a queue of 16").isEqualTo(16);
            late.close();
            assertThat(LayoutFollower.wholeQueue(env)).isTrue();
            Map<String, String> ranged = new java.util.HashMap<>(env);
            ranged.put("DELAYQ_SHARD_FROM", "0");
            ranged.put("DELAYQ_SHARD_TO", "3");
            assertThat(LayoutFollower.wholeQueue(ranged)).isFalse();
            assertThat(WorkerConfig.fromEnv(ranged).range().size()).isEqualTo(4);
        } finally {
            follower.close();
        }
    }
}
