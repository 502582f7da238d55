package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.reshard.Mover;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After a 4 -> 16 grow, a stale hand-written producer still on 4 shards writes to crc32(id) mod 4: a real worker's
 * stray sweep moves those tasks (waiting ones with their record, a dead one with its error) to their shard of the
 * 16-shard layout, so that a client of the new count finds them there and refuses a duplicate; a stray already due
 * stays where it is and fires there.
 */
class StraySweepTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static List<String> strays(String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; ids.size() < count; n++) {
            String id = prefix + n;
            if (Sharding.shardOf(id, 4) != Sharding.shardOf(id, 16)) {
                ids.add(id);
            }
        }
        return ids;
    }

    @Test
    void aRealWorkerMovesTasksOfAStaleProducerToTheirShardOfTheNewLayout() throws Exception {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             io.delayq.redis.RedisEndpoint raw = io.delayq.redis.RedisEndpoint.connect(redis.url());
             Fleet fleet = new Fleet()) {
            assertThat(new Mover(Mover.Params.of(client.protocol(), 16, p -> { })).run().to()).isEqualTo(16);
            io.delayq.testing.TestQueue view = io.delayq.testing.TestQueue.reading(client, raw);
            RedisClusterAsyncCommands<String, String> r = client.redis().commands();
            long now = io.delayq.testing.TestQueue.serverNow(r);

            // the stale producer (4 shards) writes, by hand, as docs/protocol.md teaches
            List<String> waiting = strays("late-", 40);
            for (String id : waiting) {
                ShardKeys old = new ShardKeys("orders", Sharding.shardOf(id, 4));
                r.hset(old.record(id), id, "{\"payload\":\"p-" + id + "\"}").get();
                r.zadd(old.due(0), now + 600_000, id).get();
            }
            String dead = strays("dead-", 1).get(0);
            ShardKeys deadOld = new ShardKeys("orders", Sharding.shardOf(dead, 4));
            r.hset(deadOld.record(dead), dead, "{\"payload\":\"x\"}").get();
            r.zadd(deadOld.dead(), now - 1000, dead).get();
            r.hset(deadOld.errors(), dead, "boom").get();
            String dueNow = strays("now-", 1).get(0);
            r.zadd(new ShardKeys("orders", Sharding.shardOf(dueNow, 4)).due(0), now - 1, dueNow).get();

            Map<String, String> env = Fleet.env(redis.url(), "orders", 16);
            env.put("DELAYQ_SHARD_FROM", "0");
            env.put("DELAYQ_SHARD_TO", "15");
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            Worker worker = fleet.start(env, fleet.recorder());

            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> waiting.stream().allMatch(id ->
                    view.waiting(Sharding.shardOf(id, 16)).containsKey(id))
                    && zscore(r, new ShardKeys("orders", Sharding.shardOf(dead, 16)).dead(), dead) != null);
            for (String id : waiting) {
                assertThat(view.waiting(Sharding.shardOf(id, 4))).as("left its old shard: " + id).doesNotContainKey(id);
                TaskInfo info = client.inspect(id);
                assertThat(info.shard()).isEqualTo(Sharding.shardOf(id, 16));
                assertThat(info.score()).isEqualTo(now + 600_000);
                assertThat(info.rawRecord()).isEqualTo("{\"payload\":\"p-" + id + "\"}");
                // a client of the new count enqueues on the home shard only: the duplicate is refused now
                assertThat(client.enqueue(TaskSpec.of(id).after(Duration.ofMinutes(1)), DuplicatePolicy.REJECT).status())
                        .isEqualTo(EnqueueResult.Status.DUPLICATE);
            }
            TaskInfo deadInfo = client.inspect(dead);
            assertThat(deadInfo.state()).isEqualTo(TaskInfo.State.DEAD);
            assertThat(deadInfo.shard()).isEqualTo(Sharding.shardOf(dead, 16));
            assertThat(deadInfo.lastError()).isEqualTo("boom");
            // the due stray was not moved: it fired where the stale producer put it
            await().atMost(Duration.ofSeconds(10)).until(() -> fleet.countById.containsKey(dueNow));
            assertThat(fleet.countById).doesNotContainKeys(waiting.toArray(String[]::new));
            assertThat(worker.registry().find("delayq.strays.moved").counter().count()).isEqualTo(waiting.size() + 1);
        }
    }

    /** While a migration runs the mover moves what belongs elsewhere; the sweep keeps out of its way (and of a queue never grown). */
    @Test
    void theSweepLeavesAQueueAloneWhileAMigrationRunsAndOneNeverGrown() throws Exception {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
             io.delayq.redis.RedisEndpoint raw = io.delayq.redis.RedisEndpoint.connect(redis.url())) {
            io.delayq.testing.TestQueue view = io.delayq.testing.TestQueue.reading(client, raw);
            RedisClusterAsyncCommands<String, String> r = client.redis().commands();
            long now = io.delayq.testing.TestQueue.serverNow(r);
            String id = strays("mid-", 1).get(0);
            String oldDue = new ShardKeys("orders", Sharding.shardOf(id, 4)).due(0);
            r.zadd(oldDue, now + 600_000, id).get();
            java.util.concurrent.atomic.AtomicLong moved = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();
            io.delayq.worker.layout.StraySweep sweep = new io.delayq.worker.layout.StraySweep(new io.delayq.worker.layout.StraySweep.Params(
                    client.protocol(), java.util.stream.IntStream.range(0, 16).boxed().toList(), 100, Duration.ofSeconds(60), Duration.ofSeconds(1),
                    Duration.ofSeconds(5), moved::addAndGet, clock::get));
            for (int tick = 0; tick < 100; tick++) {
                sweep.run();
                clock.addAndGet(Duration.ofSeconds(61).toNanos()); // past every rest: each call looks again
            }
            assertThat(zscore(r, oldDue, id)).as("never grown: in place").isNotNull();
            io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(client.protocol().scope()).reshardBegin(16), Duration.ofSeconds(5));
            for (int tick = 0; tick < 100; tick++) {
                sweep.run();
                clock.addAndGet(Duration.ofSeconds(61).toNanos());
            }
            assertThat(zscore(r, oldDue, id)).as("mid-migration: the mover's to move").isNotNull();
            assertThat(moved.get()).isZero();
            io.delayq.redis.Replies.await(new io.delayq.reshard.ReshardScripts(client.protocol().scope()).reshardFinish(1, 0), Duration.ofSeconds(5));
            for (int tick = 0; tick < 100 && moved.get() == 0; tick++) {
                sweep.run(); // one bounded move_out per call, shard by shard and set by set
            }
            assertThat(moved.get()).isEqualTo(1);
            assertThat(view.waiting(Sharding.shardOf(id, 16))).containsKey(id);
        }
    }

    private static Double zscore(RedisClusterAsyncCommands<String, String> r, String key, String id) {
        return io.delayq.redis.Replies.await(r.zscore(key, id), Duration.ofSeconds(5));
    }
}
