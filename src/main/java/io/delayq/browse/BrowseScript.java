package io.delayq.browse;

import io.delayq.bucket.BucketLayout;
import io.delayq.bucket.BucketScript;
import io.delayq.queue.QueueScope;
import io.delayq.script.LuaScript;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import static io.delayq.redis.Replies.asLong;

/** One bounded page of one shard (browse.lua; p3/browse.lua on protocol 3); {@link TaskBrowser} merges the shards' pages. */
public final class BrowseScript {
    private final QueueScope scope;

    public BrowseScript(QueueScope scope) {
        this.scope = scope;
    }

    /** One bounded page of one shard (browse.lua); {@link io.delayq.browse.TaskBrowser} merges the shards. */
    public CompletionStage<ShardPage> browse(int shard, BrowseQuery query, Position after, int limit, int scanBudget, int previewBytes) {
        List<String> args = List.of(query.state().wire(),
                after == null ? "" : String.valueOf(after.score()), after == null ? "" : after.id(),
                query.from() == null ? "" : String.valueOf(query.from().toEpochMilli()),
                query.to() == null ? "" : String.valueOf(query.to().toEpochMilli()),
                query.idPrefix(), String.valueOf(limit), String.valueOf(scanBudget), String.valueOf(previewBytes));
        CompletionStage<List<Object>> reply = scope.buckets() != null
                ? scope.scripts().run(BucketScript.BROWSE, List.of(BucketLayout.prefix(scope.queue(), shard)), args)
                : scope.scripts().run(LuaScript.BROWSE, scope.keys(shard).scriptKeys(), args);
        return reply.thenApply(r -> {
            int n = (int) asLong(r.get(5));
            List<BrowsedTask> tasks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int at = 6 + i * 7;
                tasks.add(new BrowsedTask((String) r.get(at), shard, query.state(), asLong(r.get(at + 1)), (int) asLong(r.get(at + 2)),
                        (int) asLong(r.get(at + 3)), (String) r.get(at + 4), (String) r.get(at + 5), asLong(r.get(at + 6))));
            }
            Position frontier = asLong(r.get(2)) == 1 ? null : new Position(asLong(r.get(3)), (String) r.get(4));
            return new ShardPage(shard, asLong(r.get(0)), asLong(r.get(1)), frontier, tasks);
        });
    }
}
