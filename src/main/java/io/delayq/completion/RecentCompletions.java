package io.delayq.completion;

import io.delayq.queue.QueueScope;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The latest completion records of a queue, newest first: the last {@code limit} entries of each shard's
 * {@code done:at} set (a plain {@code ZRANGE} by negative index, so a read-only user needs no more commands than it
 * has) and their records ({@code HMGET}), merged by finish time. Read-only; not atomic across shards.
 */
public final class RecentCompletions {
    /** One kept completion: the task's id and shard, and its record. */
    public record Entry(String id, int shard, CompletionRecord record) {
    }

    private final QueueScope scope;

    public RecentCompletions(QueueScope scope) {
        this.scope = scope;
    }

    /** The newest {@code limit} of one shard. */
    public CompletionStage<List<Entry>> ofShard(int shard, int limit) {
        ShardKeys k = scope.keys(shard);
        return scope.commands().zrangeWithScores(k.doneAt(), -limit, -1).thenCompose(newestLast -> {
            if (newestLast.isEmpty()) {
                return CompletableFuture.completedFuture(List.<Entry>of());
            }
            String[] ids = newestLast.stream().map(ScoredValue::getValue).toArray(String[]::new);
            return scope.commands().hmget(k.done(), ids).thenApply(values -> {
                List<Entry> out = new ArrayList<>(values.size());
                for (int i = values.size() - 1; i >= 0; i--) {
                    KeyValue<String, String> v = values.get(i);
                    CompletionRecord r = v.hasValue() ? CompletionRecord.parse(v.getValue()) : null;
                    if (r != null) {
                        out.add(new Entry(v.getKey(), shard, r));
                    }
                }
                return out;
            });
        });
    }

    /** The newest {@code limit} of shards {@code 0 .. shards - 1}. */
    public CompletionStage<List<Entry>> newest(int shards, int limit) {
        List<CompletableFuture<List<Entry>>> each = new ArrayList<>(shards);
        for (int s = 0; s < shards; s++) {
            each.add(ofShard(s, limit).toCompletableFuture());
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(v -> each.stream()
                .flatMap(f -> f.join().stream())
                .sorted(Comparator.comparing((Entry e) -> e.record().finishedAt()).reversed())
                .limit(limit).toList());
    }
}
