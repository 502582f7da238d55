package io.delayq.queue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Items of one shard, at most {@link QueueProtocol#MAX_PER_CALL} of them: what one script call takes.
 * Every batch operation (enqueue, cancel, ack, lease extension) cuts its items this way.
 */
public record ShardChunk<T>(int shard, List<T> items) {

    /** The items grouped by shard, shards in the order first seen and items in their order, each group cut into chunks. */
    public static <T> List<ShardChunk<T>> of(Iterable<T> items, ToIntFunction<? super T> shardOf) {
        return ofEach(items, item -> List.of(shardOf.applyAsInt(item)));
    }

    /**
     * As {@link #of}, with an item in every shard that may hold it (an id during or after a reshard:
     * each shard of its layouts' lookup order).
     */
    public static <T> List<ShardChunk<T>> ofEach(Iterable<T> items, Function<? super T, ? extends Iterable<Integer>> shardsOf) {
        Map<Integer, List<T>> byShard = new LinkedHashMap<>();
        for (T item : items) {
            for (int shard : shardsOf.apply(item)) {
                byShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(item);
            }
        }
        List<ShardChunk<T>> chunks = new ArrayList<>();
        byShard.forEach((shard, list) -> {
            for (int from = 0; from < list.size(); from += QueueProtocol.MAX_PER_CALL) {
                chunks.add(new ShardChunk<>(shard, List.copyOf(list.subList(from, Math.min(list.size(), from + QueueProtocol.MAX_PER_CALL)))));
            }
        });
        return chunks;
    }
}
