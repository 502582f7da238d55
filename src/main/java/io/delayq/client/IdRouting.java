package io.delayq.client;

import io.delayq.layout.Layout;
import io.delayq.layout.LayoutChangedException;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.TaskAdmin.Found;
import io.delayq.queue.QueueProtocol.Placed;
import io.delayq.queue.ShardChunk;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Sends id-addressed operations to the shard that holds the id, whichever layout that is (docs/protocol.md,
 * "Layouts and resharding"): during a migration the old shard first, acting only if the id is there, then
 * the new one; a "LAYOUT" refusal re-reads the meta hash and tries again, a "moving" answer waits a few
 * milliseconds for the mover to deliver the task. Nothing is written by a refused or "moving" call, so
 * trying again is always safe.
 */
final class IdRouting {
    static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final long PAUSE_MS = 5;
    private static final Executor LATER = CompletableFuture.delayedExecutor(PAUSE_MS, TimeUnit.MILLISECONDS);

    private final QueueProtocol protocol;

    IdRouting(QueueProtocol protocol) {
        this.protocol = protocol;
    }

    interface ShardLookup<T> {
        CompletionStage<Found<T>> at(int shard, long epoch);
    }

    interface ShardWrite {
        CompletionStage<List<Placed>> at(int shard, List<TaskSpec> tasks, long epoch, boolean presentOnly);
    }

    /** A cancel, reschedule or inspect: the first shard of {@link Layout#lookupOrder} that holds the id answers. */
    <T> CompletionStage<T> byId(String id, ShardLookup<T> call) {
        return byId(id, call, System.nanoTime() + PATIENCE.toNanos());
    }

    private <T> CompletionStage<T> byId(String id, ShardLookup<T> call, long deadline) {
        Layout layout = protocol.layout();
        List<Integer> order = layout.lookupOrder(id);
        return tryIn(id, order, 0, layout, call, null).handle((found, error) -> {
            if (error != null) {
                if (!isLayoutRefusal(error)) {
                    return CompletableFuture.<T>failedFuture(unwrap(error));
                }
                return later(deadline, "the layout of queue '" + protocol.queue() + "' kept changing: " + unwrap(error).getMessage(),
                        () -> protocol.refreshLayout().thenCompose(l -> byId(id, call, deadline)));
            }
            if (found.moving()) {
                return later(deadline, movingMessage(id), () -> byId(id, call, deadline));
            }
            return CompletableFuture.completedFuture(found.value());
        }).thenCompose(f -> f);
    }

    /** Tries the shards in order; when none holds the id, the id's own shard's "unknown" is the answer. */
    private <T> CompletionStage<Found<T>> tryIn(String id, List<Integer> order, int k, Layout layout, ShardLookup<T> call, Found<T> ownAnswer) {
        int shard = order.get(k);
        return call.at(shard, layout.epoch()).thenCompose(found -> {
            Found<T> own = shard == layout.shardOf(id) ? found : ownAnswer;
            if (found.unknown() && k + 1 < order.size()) {
                return tryIn(id, order, k + 1, layout, call, own);
            }
            return CompletableFuture.completedFuture(found.unknown() && own != null ? own : found);
        });
    }

    /** Enqueues tasks where their ids live; the answer is in input order. */
    CompletionStage<List<Placed>> enqueue(List<TaskSpec> tasks, ShardWrite write) {
        Placed[] results = new Placed[tasks.size()];
        List<Integer> all = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            all.add(i);
        }
        return round(tasks, all, write, results, System.nanoTime() + PATIENCE.toNanos()).thenApply(v -> List.of(results));
    }

    private CompletionStage<Void> round(List<TaskSpec> tasks, List<Integer> indexes, ShardWrite write, Placed[] results, long deadline) {
        Layout layout = protocol.layout();
        // during a migration an id whose old shard differs is tried there first ("present" only), then on its new shard
        List<Integer> moved = indexes.stream().filter(i -> layout.oldShardOf(tasks.get(i).id()) >= 0).toList();
        List<Integer> direct = indexes.stream().filter(i -> layout.oldShardOf(tasks.get(i).id()) < 0).toList();
        List<Integer> again = java.util.Collections.synchronizedList(new ArrayList<>());
        boolean[] refused = new boolean[1];
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (ShardChunk<Integer> chunk : ShardChunk.of(direct, i -> layout.shardOf(tasks.get(i).id()))) {
            calls.add(send(tasks, chunk, false, layout, write, results, again, refused, null));
        }
        for (ShardChunk<Integer> chunk : ShardChunk.of(moved, i -> layout.oldShardOf(tasks.get(i).id()))) {
            List<Integer> absent = java.util.Collections.synchronizedList(new ArrayList<>());
            calls.add(send(tasks, chunk, true, layout, write, results, again, refused, absent).thenCompose(v -> {
                List<CompletableFuture<Void>> next = new ArrayList<>();
                for (ShardChunk<Integer> onNew : ShardChunk.of(absent, i -> layout.shardOf(tasks.get(i).id()))) {
                    next.add(send(tasks, onNew, false, layout, write, results, again, refused, null));
                }
                return CompletableFuture.allOf(next.toArray(CompletableFuture[]::new));
            }));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            if (again.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            List<Integer> retry = new ArrayList<>(again);
            String why = refused[0] ? "the layout of queue '" + protocol.queue() + "' kept changing"
                    : movingMessage(tasks.get(retry.get(0)).id());
            return later(deadline, why, () -> (refused[0] ? protocol.refreshLayout() : CompletableFuture.completedFuture(layout))
                    .thenCompose(l -> round(tasks, retry, write, results, deadline)));
        });
    }

    private CompletableFuture<Void> send(List<TaskSpec> tasks, ShardChunk<Integer> chunkOfShard, boolean presentOnly, Layout layout,
                                         ShardWrite write, Placed[] results, List<Integer> again, boolean[] refused, List<Integer> absent) {
        List<Integer> chunk = chunkOfShard.items();
        List<TaskSpec> specs = chunk.stream().map(tasks::get).toList();
        return write.at(chunkOfShard.shard(), specs, layout.epoch(), presentOnly).handle((placed, error) -> {
            if (error != null) {
                if (!isLayoutRefusal(error)) {
                    throw error instanceof CompletionException ce ? ce : new CompletionException(error);
                }
                refused[0] = true;
                again.addAll(chunk);
                return (Void) null;
            }
            for (int j = 0; j < chunk.size(); j++) {
                Placed p = placed.get(j);
                switch (p.status()) {
                    case "absent" -> absent.add(chunk.get(j));
                    case "moving" -> again.add(chunk.get(j));
                    default -> results[chunk.get(j)] = p;
                }
            }
            return (Void) null;
        }).toCompletableFuture();
    }

    private String movingMessage(String id) {
        return "task '" + id + "' of queue '" + protocol.queue() + "' stayed in a shard's `moving` hash for " + PATIENCE.toSeconds()
                + " s: a reshard is running but its mover seems stopped; resume it (delayq reshard " + protocol.queue() + " --to "
                + protocol.layout().shards() + ")";
    }

    private static <T> CompletionStage<T> later(long deadline, String giveUp, Supplier<CompletionStage<T>> next) {
        if (System.nanoTime() > deadline) {
            return CompletableFuture.failedFuture(new LayoutChangedException(giveUp));
        }
        return CompletableFuture.supplyAsync(next, LATER).thenCompose(f -> f);
    }

    static boolean isLayoutRefusal(Throwable error) {
        Throwable e = unwrap(error);
        return e.getMessage() != null && e.getMessage().startsWith("LAYOUT ");
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof java.util.concurrent.ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
