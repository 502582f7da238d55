package io.delayq.operator.sharding;

import io.delayq.shard.ShardRange;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a queue's shards into contiguous ranges, one per worker Deployment. A split that does not
 * come out even is balanced rather than leaving a small remainder: 10 shards at most 4 per worker
 * give 4, 3, 3 (not 4, 4, 2), so no Deployment carries much more than another. Every range holds
 * at most {@code shardsPerWorker} shards and the number of ranges is ceil(shards / shardsPerWorker).
 */
public final class ShardPlan {

    private ShardPlan() {
    }

    /**
     * @param shardsPerWorker at most this many shards per range; {@code null} means one range
     * @throws IllegalArgumentException naming the field when the numbers are out of range
     */
    public static List<ShardRange> ranges(int shards, Integer shardsPerWorker) {
        if (shards < 1) {
            throw new IllegalArgumentException("spec.shards must be at least 1, got " + shards);
        }
        int perWorker = shardsPerWorker == null ? shards : shardsPerWorker;
        if (perWorker < 1 || perWorker > shards) {
            throw new IllegalArgumentException("spec.shardsPerWorker must be between 1 and spec.shards (" + shards + "), got " + perWorker);
        }
        int count = (shards + perWorker - 1) / perWorker;
        int base = shards / count;
        int larger = shards % count; // the first `larger` ranges get one shard more
        List<ShardRange> ranges = new ArrayList<>(count);
        int from = 0;
        for (int i = 0; i < count; i++) {
            int size = base + (i < larger ? 1 : 0);
            ranges.add(new ShardRange(from, from + size - 1));
            from += size;
        }
        return List.copyOf(ranges);
    }
}
