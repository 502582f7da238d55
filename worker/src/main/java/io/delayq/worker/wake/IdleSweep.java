package io.delayq.worker.wake;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.ObjIntConsumer;

/**
 * The back-up of the markers: looks at each owned shard's {@code due} set and {@code groups} set (the earliest
 * group turn, docs/protocol.md "Groups"), or a protocol-3 shard's window indexes, at the pace of a
 * {@link ShardPace}, and wakes the claim loop for that shard at the earliest head's due time. Every delayq producer
 * writes the shard's marker when it adds a task due before the shard's head, so the claim loop needs no periodic
 * claim of idle shards; what the sweep catches is a
 * hand-written {@code ZADD} without the marker (docs/protocol.md, "Store only the id", and a grouped task written
 * by hand) and a marker popped by a connection that died (or stalled) before answering.
 *
 * <p>Every visit covers every set, so a task without a marker waits at most one round whichever set it is in. A
 * shard whose last visit found them empty (most shards of an idle worker) is visited with one {@code EXISTS} of
 * the keys, and only when that finds one are the heads read ({@code ZRANGE … 0 0}, no script); a shard that
 * held something is visited with the head reads until a visit finds them all empty. One tick per {@link #TICK_MILLIS}.
 */
public final class IdleSweep implements Runnable {
    public static final long TICK_MILLIS = 100;

    /**
     * @param keys   the sets of a shard whose head wakes it: protocol 2's {@code due} and {@code groups}; protocol 3's
     *               window indexes ({@code idx}, {@code idx1}, {@code idx2}, scored by window start)
     * @param onHead called with (due time of the head in server ms, shard) for every shard that holds a task
     */
    public record Params(RedisClusterAsyncCommands<String, String> redis, ShardPace pace, IntFunction<List<String>> keys,
                         ObjIntConsumer<Long> onHead) {
    }

    private final Params p;
    /** Shards whose last visit found a head (or could not tell): their next visit reads the heads at once. */
    private final Set<Integer> occupied = ConcurrentHashMap.newKeySet();

    public IdleSweep(Params p) {
        this.p = p;
    }

    @Override
    public void run() {
        p.pace().take(System.nanoTime(), this::visit);
    }

    /** One shard's visit (the pace's turn); answers once the visit's reads are done. */
    CompletableFuture<Void> visit(int shard) {
        List<String> keys = p.keys().apply(shard);
        if (occupied.contains(shard)) {
            return heads(keys, shard);
        }
        return p.redis().exists(keys.toArray(String[]::new)).toCompletableFuture().handle((n, error) -> {
            // an error is the claim loop's and the health check's to report; the next round looks again
            return error == null && n > 0 ? heads(keys, shard) : CompletableFuture.<Void>completedFuture(null);
        }).thenCompose(f -> f);
    }

    private CompletableFuture<Void> heads(List<String> keys, int shard) {
        List<CompletableFuture<Boolean>> reads = keys.stream().map(k -> head(k, shard)).toList();
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> {
            if (reads.stream().anyMatch(CompletableFuture::join)) {
                occupied.add(shard);
            } else {
                occupied.remove(shard);
            }
            return null;
        });
    }

    /** Whether {@code key} has a head (true also when the read failed: look again next round). */
    private CompletableFuture<Boolean> head(String key, int shard) {
        return p.redis().zrangeWithScores(key, 0, 0).toCompletableFuture().handle((List<ScoredValue<String>> head, Throwable error) -> {
            if (error != null) {
                return true;
            }
            if (!head.isEmpty() && head.get(0).hasValue()) {
                p.onHead().accept((long) head.get(0).getScore(), shard);
                return true;
            }
            return false;
        });
    }
}
