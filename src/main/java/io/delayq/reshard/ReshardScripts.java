package io.delayq.reshard;

import io.delayq.bucket.BucketLayout;
import io.delayq.bucket.BucketScript;
import io.delayq.layout.Layout;
import io.delayq.queue.QueueScope;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.shard.ShardKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static io.delayq.redis.Replies.asLong;

/**
 * What the {@link Mover} sends to Redis: the migration's begin and finish in the meta hash, the shards' layout
 * stamps, the move of batches from a shard to their new shards, the mover lease, and the copy of once-mode entries.
 */
public final class ReshardScripts {
    private final QueueScope scope;

    public ReshardScripts(QueueScope scope) {
        this.scope = scope;
    }

    /** reshard_begin.lua: {"started" | "resumed", epoch, from, to}; a shrink, the same count or a second migration fail with "RESHARD ...". */
    public CompletionStage<List<Object>> reshardBegin(int to) {
        return scope.scripts().run(LuaScript.RESHARD_BEGIN, List.of(scope.meta()), List.of(String.valueOf(to)));
    }

    /** reshard_finish.lua: the new epoch. */
    public CompletionStage<Long> reshardFinish(long epoch, long moved) {
        return scope.scripts().run(LuaScript.RESHARD_FINISH, List.of(scope.meta()), List.of(String.valueOf(epoch), String.valueOf(moved)));
    }

    /** Writes a shard's layout stamp (include/layout.lua: field {@code stamp} of the shard's {@code layout} hash). */
    public CompletionStage<Boolean> stamp(int shard, Layout of) {
        return scope.commands().hset(scope.keys(shard).layout(), "stamp", of.stamp());
    }

    /** Records migration progress in the meta hash (read by stats, the CLI and the operator). */
    public CompletionStage<Long> recordProgress(long moved, long left) {
        return scope.commands().hset(scope.meta(), java.util.Map.of("moved", String.valueOf(moved), "left", String.valueOf(left)));
    }

    /**
     * The sets a pass of the mover walks on each old shard, in order (move_out's ARGV[3]). Protocol 2: the due sets of
     * levels 0..2, every group's waiting tasks ("g", through {@code due:g}), the dead letters, the completion records
     * ("done", through {@code done:at}, which go to their id's new shard like its task), and the tasks in flight (only
     * counted). Protocol 3: the minutes first ("c": a minute promoted into windows between two calls lands where the
     * walk has not been), the window indexes of levels 0..2, the grouped windows ("wg", through {@code gidx}), then the
     * same last three.
     */
    public List<String> sets() {
        return scope.buckets() != null ? BUCKETED_SETS : SETS;
    }

    /**
     * Of {@link #sets()}, those that hold waiting tasks or dead letters: what the worker's stray sweep walks (in-flight
     * tasks finish where they were claimed).
     */
    public List<String> straySets() {
        return sets().stream().filter(set -> !NOT_STRAY.contains(set)).toList();
    }

    private static final List<String> SETS = List.of("0", "1", "2", "g", "dead", "done", "inflight");
    private static final List<String> BUCKETED_SETS = List.of("c", "w0", "w1", "w2", "wg", "dead", "done", "inflight");
    /** Of the sets, those the stray sweep leaves: groups' waiting tasks, completion records, tasks in flight. */
    private static final Set<String> NOT_STRAY = Set.of("g", "wg", "done", "inflight");

    /** Tasks waiting (all due levels) or dead on one shard: what a pass of the mover looks at. */
    public CompletionStage<Long> waitingCount(int shard) {
        if (scope.buckets() != null) {
            String prefix = BucketLayout.prefix(scope.queue(), shard);
            CompletableFuture<Long> waiting = scope.commands().get(prefix + "waiting").toCompletableFuture()
                    .thenApply(v -> v == null ? 0L : Long.parseLong(v));
            CompletableFuture<Long> dead = scope.commands().zcard(prefix + "dead").toCompletableFuture();
            return waiting.thenCombine(dead, Long::sum);
        }
        ShardKeys k = scope.keys(shard);
        List<CompletableFuture<Long>> counts = List.of(scope.commands().zcard(k.due(0)).toCompletableFuture(), scope.commands().zcard(k.due(1)).toCompletableFuture(),
                scope.commands().zcard(k.due(2)).toCompletableFuture(), scope.commands().zcard(k.groupedDue()).toCompletableFuture(),
                scope.commands().zcard(k.dead()).toCompletableFuture());
        return CompletableFuture.allOf(counts.toArray(CompletableFuture[]::new)).thenApply(v -> counts.stream().mapToLong(CompletableFuture::join).sum());
    }

    /**
     * One batch move_out.lua took (or the batch already waiting in {@code moving}); {@code to}: the shard count it
     * was taken for, which its ids are delivered by (0 for a batch of an earlier version: the caller's count).
     */
    public record MoveBatch(boolean pending, long nextOffset, long skipped, long misplacedInflight, long seq, long looked,
                            List<String> ids, List<String> states, int to) {
        /** The shard count to deliver by: the batch's own, else {@code fallback}. */
        public int deliverBy(int fallback) {
            return to > 0 ? to : fallback;
        }
    }

    /** move_out of {@link #sets()}' {@code set} on one old shard (protocol 3's p3/move_out.lua answers the same). */
    public CompletionStage<MoveBatch> moveOut(int shard, int to, String set, long offset, int budget, long windowMillis) {
        List<String> args = List.of(String.valueOf(to), String.valueOf(shard), set, String.valueOf(offset), String.valueOf(budget),
                String.valueOf(windowMillis));
        CompletionStage<List<Object>> reply;
        if (scope.buckets() != null) {
            reply = scope.scripts().run(BucketScript.MOVE_OUT, List.of(BucketLayout.prefix(scope.queue(), shard)), args);
        } else {
            List<String> k = new ArrayList<>(scope.keys(shard).scriptKeys());
            k.add(scope.keys(shard).moving());
            k.add(scope.keys(shard).moveSeq());
            reply = scope.scripts().run(LuaScript.MOVE_OUT, k, args);
        }
        return reply.thenApply(r -> {
            int n = (int) asLong(r.get(6));
            List<String> ids = new ArrayList<>(n);
            List<String> states = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ids.add((String) r.get(7 + 2 * i));
                states.add((String) r.get(8 + 2 * i));
            }
            int batchTo = r.size() > 7 + 2 * n ? (int) asLong(r.get(7 + 2 * n)) : 0;
            return new MoveBatch(asLong(r.get(0)) == 1, asLong(r.get(1)), asLong(r.get(2)), asLong(r.get(3)), asLong(r.get(4)),
                    asLong(r.get(5)), ids, states, batchTo);
        });
    }

    /** move_in.lua (or protocol 3's) on the tasks' new shard: {added, merged, already applied}. */
    public CompletionStage<List<Long>> moveIn(int shard, int source, long seq, List<String> ids, List<String> states) {
        List<String> args = new ArrayList<>(3 + ids.size() * 2);
        args.add(String.valueOf(source));
        args.add(String.valueOf(seq));
        args.add(String.valueOf(ids.size()));
        for (int i = 0; i < ids.size(); i++) {
            args.add(ids.get(i));
            args.add(states.get(i));
        }
        CompletionStage<List<Object>> reply;
        if (scope.buckets() != null) {
            reply = scope.scripts().run(BucketScript.MOVE_IN, List.of(BucketLayout.prefix(scope.queue(), shard)), args);
        } else {
            List<String> k = new ArrayList<>(scope.keys(shard).scriptKeys());
            k.add(scope.keys(shard).arrived());
            reply = scope.scripts().run(LuaScript.MOVE_IN, k, args);
        }
        return reply.thenApply(r -> r.stream().map(Replies::asLong).toList());
    }

    public CompletionStage<Long> moveDone(int shard, long seq) {
        return scope.scripts().run(LuaScript.MOVE_DONE, List.of(scope.keys(shard).moving(), scope.keys(shard).moveSeq()), List.of(String.valueOf(seq)));
    }

    /** What reshard_lease.lua answered: whether the caller holds the lease now, its holder, and the ms it still runs. */
    public record MoverLease(boolean held, String holder, long millisLeft) {
    }

    /** The queue's mover lease (reshard_lease.lua): {@code mode} "take", "renew" or "give-back". */
    public CompletionStage<MoverLease> moverLease(String mode, String holder, Duration lease) {
        return scope.scripts().<List<Object>>run(LuaScript.RESHARD_LEASE, List.of(scope.meta()), List.of(mode, holder, String.valueOf(lease.toMillis())))
                .thenApply(r -> new MoverLease(asLong(r.get(0)) == 1, (String) r.get(1), asLong(r.get(2))));
    }

    /** A page of a shard's {@code once} set (id -> ms it was added in that mode) from {@code minScore}, skipping {@code skip} entries. */
    public CompletionStage<List<io.lettuce.core.ScoredValue<String>>> onceEntries(int shard, double minScore, long skip, int count) {
        return entries(scope.keys(shard).once(), minScore, skip, count);
    }

    /** A page of a shard's ZSET {@code key} (its {@code once} or {@code dedup} set) from {@code minScore}, skipping {@code skip} entries. */
    public CompletionStage<List<io.lettuce.core.ScoredValue<String>>> entries(String key, double minScore, long skip, int count) {
        return scope.commands().zrangebyscoreWithScores(key, io.lettuce.core.Range.create(minScore, Double.POSITIVE_INFINITY),
                io.lettuce.core.Limit.create(skip, count));
    }

    /** Adds once-mode entries to a shard's {@code once} set, keeping an entry the shard already has (ZADD NX). */
    public CompletionStage<Long> addOnce(int shard, List<io.lettuce.core.ScoredValue<String>> entries) {
        return addEntries(scope.keys(shard).once(), entries);
    }

    /** Adds entries to a shard's ZSET {@code key}, keeping an entry the shard already has (ZADD NX). */
    public CompletionStage<Long> addEntries(String key, List<io.lettuce.core.ScoredValue<String>> entries) {
        Object[] scoresAndValues = new Object[entries.size() * 2];
        for (int i = 0; i < entries.size(); i++) {
            scoresAndValues[2 * i] = entries.get(i).getScore();
            scoresAndValues[2 * i + 1] = entries.get(i).getValue();
        }
        return scope.commands().zadd(key, io.lettuce.core.ZAddArgs.Builder.nx(), scoresAndValues);
    }
}
