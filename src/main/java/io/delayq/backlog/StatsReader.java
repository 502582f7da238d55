package io.delayq.backlog;

import io.delayq.queue.QueueScope;
import io.delayq.script.LuaScript;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;

import static io.delayq.redis.Replies.asLong;

/** A shard's backlog counts (stats.lua; p3/stats.lua on protocol 3), and a queue's over a range of shards, for metrics, the operator's status and the CLI. */
public final class StatsReader {
    private final QueueScope scope;

    public StatsReader(QueueScope scope) {
        this.scope = scope;
    }

    public CompletionStage<ShardStats> stats(int shard) {
        CompletionStage<List<Object>> reply;
        if (scope.buckets() != null) {
            reply = scope.buckets().stats(shard);
        } else {
            List<String> statsKeys = new ArrayList<>(scope.keys(shard).scriptKeys());
            statsKeys.add(scope.keys(shard).paused());
            reply = scope.scripts().run(LuaScript.STATS, statsKeys, List.of());
        }
        return reply.thenApply(r ->
                new ShardStats(shard, asLong(r.get(0)), asLong(r.get(1)), asLong(r.get(2)), asLong(r.get(3)), asLong(r.get(4)), asLong(r.get(5)),
                        r.size() > 6 && asLong(r.get(6)) == 1));
    }

    /** Stats of the given shards, fetched in parallel over the shared connection. */
    public CompletionStage<QueueStats> stats(IntStream shardNumbers) {
        List<CompletableFuture<ShardStats>> all = shardNumbers.mapToObj(s -> stats(s).toCompletableFuture()).toList();
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(v -> new QueueStats(scope.queue(), all.stream().map(CompletableFuture::join).toList()));
    }
}
