package io.delayq.worker.wake;

import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.awaitility.Awaitility.await;

/** Idle shards are no longer claimed on a timer: a hand-written task without a marker is found by the idle sweep. */
class BareZaddSweepTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "bare";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void aBareZaddWithoutAMarkerFires() {
        Set<String> fired = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 4), task -> fired.add(task.id()));
        // every shard claimed once and found empty: from here on only markers and the sweep wake a shard
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 4);
        for (int i = 0; i < 4; i++) {
            // "store only the id" (docs/protocol.md): no record, no marker; one due now, one in 300 ms
            String now = "bare-now-" + i;
            String later = "bare-later-" + i;
            long t = TestQueue.serverNow(queue.redis());
            TestQueue.get(queue.redis().zadd(queue.keys(queue.shardOf(now)).due(0), t, now));
            TestQueue.get(queue.redis().zadd(queue.keys(queue.shardOf(later)).due(0), t + 300, later));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 8);
    }

    @Test
    void aGroupedTaskWithoutAMarkerFiresThroughTheGroupsHead() {
        Set<String> fired = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 4), task -> fired.add(task.id()));
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= 4);
        for (int i = 0; i < 4; i++) {
            // docs/protocol.md "Groups", producing by hand, without the marker line
            String id = "grouped-" + i;
            io.delayq.shard.ShardKeys k = queue.keys(queue.shardOf(id));
            long t = TestQueue.serverNow(queue.redis()) + 200;
            TestQueue.get(queue.redis().hset(k.record(id), id, "{\"payload\":\"p\",\"group\":\"tenant-" + i + "\"}"));
            TestQueue.get(queue.redis().zadd(k.group("tenant-" + i), t, id));
            TestQueue.get(queue.redis().zadd(k.groupedDue(), t, id));
            TestQueue.get(queue.redis().zadd(k.groups(), t, "tenant-" + i));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> fired.size() == 4);
    }
}
