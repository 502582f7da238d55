package io.delayq.worker.wake;

import io.delayq.shard.ShardKeys;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.CommandCounts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one visit of the idle sweep reads, counted with INFO commandstats on a real redis-server: an empty shard
 * costs one EXISTS and no head read (neither due's nor the groups'), and a task written by hand without a marker,
 * in due or in a group, is still found on the first visit after it was written.
 */
class IdleSweepVisitTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int SHARDS = 4;
    @RegisterExtension
    final TestQueue queue = TestQueue.eachTest(redis, "sweep", SHARDS);
    private final Map<Integer, Long> heads = new ConcurrentHashMap<>();
    private IdleSweep sweep;

    @BeforeEach
    void sweep() {
        sweep = new IdleSweep(new IdleSweep.Params(queue.redis(),
            new ShardPace(IntStream.range(0, SHARDS).boxed().toList(), Duration.ofSeconds(1), 20),
            s -> java.util.List.of(queue.keys(s).due(0), queue.keys(s).groups()), (due, shard) -> heads.put(shard, due)));
    }

    @Test
    void anEmptyShardCostsOneExistsAndAHandWrittenTaskIsFoundOnTheNextVisit() {
        visitAll(3);
        Map<String, Long> before = CommandCounts.of(queue.redis());
        visitAll(1);
        Map<String, Long> after = CommandCounts.of(queue.redis());
        assertThat(calls(before, after, "exists")).as("one EXISTS per empty shard").isEqualTo(SHARDS);
        assertThat(calls(before, after, "zrange")).as("heads read on empty shards").isZero();
        assertThat(heads).isEmpty();

        // by hand, no marker: a bare ZADD to due (docs/protocol.md "Store only the id") and a grouped task ("Groups")
        String bare = idOnShard("bare-", 1);
        String grouped = idOnShard("grouped-", 2);
        long t = queue.serverNow() + 60_000;
        TestQueue.get(queue.redis().zadd(queue.keys(1).due(0), t, bare));
        ShardKeys k = queue.keys(2);
        TestQueue.get(queue.redis().hset(k.record(grouped), grouped, "{\"payload\":\"p\",\"group\":\"tenant-7\"}"));
        TestQueue.get(queue.redis().zadd(k.group("tenant-7"), t + 1, grouped));
        TestQueue.get(queue.redis().zadd(k.groupedDue(), t + 1, grouped));
        TestQueue.get(queue.redis().zadd(k.groups(), t + 1, "tenant-7"));

        visitAll(1);
        assertThat(heads).containsExactlyInAnyOrderEntriesOf(Map.of(1, t, 2, t + 1));

        // the two shards that hold a task read both heads at once (no EXISTS first); the empty ones still read none
        before = CommandCounts.of(queue.redis());
        visitAll(1);
        after = CommandCounts.of(queue.redis());
        assertThat(calls(before, after, "zrange")).as("head reads: due + groups of shards 1 and 2").isEqualTo(4);
        assertThat(calls(before, after, "exists")).as("EXISTS of shards 0 and 3").isEqualTo(2);

        // emptied again: one more visit finds both heads empty, then the shard is back to one EXISTS
        TestQueue.get(queue.redis().del(queue.keys(1).due(0)));
        visitAll(1);
        before = CommandCounts.of(queue.redis());
        sweep.visit(1).join();
        after = CommandCounts.of(queue.redis());
        assertThat(calls(before, after, "exists")).isEqualTo(1);
        assertThat(calls(before, after, "zrange")).isZero();
    }

    private void visitAll(int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (int s = 0; s < SHARDS; s++) {
                sweep.visit(s).join();
            }
        }
    }

    private String idOnShard(String prefix, int shard) {
        return IntStream.range(0, 10_000).mapToObj(i -> prefix + i).filter(id -> queue.shardOf(id) == shard).findFirst().orElseThrow();
    }

    private static long calls(Map<String, Long> before, Map<String, Long> after, String command) {
        return after.getOrDefault(command, 0L) - before.getOrDefault(command, 0L);
    }
}
