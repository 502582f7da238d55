package io.delayq.backlog;

import java.util.List;

/** The backlog of a queue (or of a worker's shard range): per shard and in total. */
public record QueueStats(String queue, List<ShardStats> shards) {

    public long scheduled() {
        return shards.stream().mapToLong(ShardStats::scheduled).sum();
    }

    public long due() {
        return shards.stream().mapToLong(ShardStats::due).sum();
    }

    public long inflight() {
        return shards.stream().mapToLong(ShardStats::inflight).sum();
    }

    public long dead() {
        return shards.stream().mapToLong(ShardStats::dead).sum();
    }

    /** How many of these shards have their pause flag set. */
    public int pausedShards() {
        return (int) shards.stream().filter(ShardStats::paused).count();
    }

    public long oldestOverdueMillis() {
        return shards.stream().mapToLong(ShardStats::oldestOverdueMillis).max().orElse(0);
    }
}
