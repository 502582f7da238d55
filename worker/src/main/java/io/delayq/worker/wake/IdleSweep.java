package io.delayq.worker.wake;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;

/**
 * The back-up of the markers: reads the head of each owned shard's {@code due} set (one {@code ZRANGE … 0 0},
 * no script) at the pace of a {@link ShardPace}, and wakes the claim loop for that shard at the head's due time.
 * Every delayq producer writes the shard's marker when it adds a task due before the shard's head, so the claim
 * loop needs no periodic claim of idle shards; what the sweep catches is a hand-written {@code ZADD} to
 * {@code due} without the marker (docs/protocol.md, "Store only the id") and a marker popped by a connection
 * that died before answering. It also reads the head of the shard's {@code groups} set (the earliest group turn,
docs/protocol.md "Groups"): a grouped task's marker can be lost the same way. One tick per {@link #TICK_MILLIS}.
 */
public final class IdleSweep implements Runnable {
    public static final long TICK_MILLIS = 100;

    /**
     * @param dueKey  the {@code dq:{q:i}:due} key of a shard
     * @param groupsKey the {@code dq:{q:i}:groups} key of a shard
     * @param onHead  called with (due time of the head in server ms, shard) for every shard that holds a task
     */
    public record Params(RedisClusterAsyncCommands<String, String> redis, ShardPace pace, IntFunction<String> dueKey,
                         IntFunction<String> groupsKey, ObjIntConsumer<Long> onHead) {
    }

    private final Params p;

    public IdleSweep(Params p) {
        this.p = p;
    }

    @Override
    public void run() {
        p.pace().take(System.nanoTime(), shard -> {
            head(p.dueKey().apply(shard), shard);
            head(p.groupsKey().apply(shard), shard);
        });
    }

    private void head(String key, int shard) {
        p.redis().zrangeWithScores(key, 0, 0).whenComplete((List<ScoredValue<String>> head, Throwable error) -> {
            // an error is the claim loop's and the health check's to report; the next round looks again
            if (error == null && !head.isEmpty() && head.get(0).hasValue()) {
                p.onHead().accept((long) head.get(0).getScore(), shard);
            }
        });
    }
}
