package io.delayq.queue;

import io.delayq.layout.Layout;
import io.delayq.layout.RecordedLayout;
import io.delayq.script.LuaScript;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import static io.delayq.redis.Replies.asLong;

/**
 * The queue's layout as this process last read it from the meta hash: the shard count every id is routed by,
 * and the epoch the id-addressed scripts check (a stale epoch answers LAYOUT, and the caller reads again).
 */
public final class QueueLayout {
    private final QueueScope scope;
    /** The count this process was configured with; the layout's count may have grown since. */
    private final int configuredShards;
    private volatile Layout layout;

    public QueueLayout(QueueScope scope, int configuredShards) {
        this.scope = scope;
        this.configuredShards = configuredShards;
        this.layout = Layout.initial(configuredShards);
    }

    public Layout current() {
        return layout;
    }

    /**
     * Records the shard count on first use; fails when Redis holds another protocol, or a shard count
     * this queue never had. A count the queue had before a reshard is followed: the layout is the meta's.
     */
    public CompletionStage<Void> verify(int protocolVersion) {
        return verify(protocolVersion, Set.of(protocolVersion));
    }

    /**
     * As above, recording {@code forNewQueue} on a queue's first use and accepting any protocol of {@code spoken};
     * the scope then knows the recorded one ({@link QueueScope#protocol()}).
     */
    public CompletionStage<Void> verify(int forNewQueue, Set<Integer> spoken) {
        return scope.scripts().<List<Object>>run(LuaScript.META, List.of(scope.meta()),
                List.of(String.valueOf(configuredShards), String.valueOf(forNewQueue))).thenAccept(reply -> {
            long recordedShards = asLong(reply.get(0));
            long recordedProtocol = asLong(reply.get(1));
            Layout recorded = Layout.fromMeta(reply);
            if (recordedShards != configuredShards && !recorded.history().contains(configuredShards)) {
                throw new ShardCountMismatchException(scope.queue(), configuredShards, recordedShards);
            }
            if (!spoken.contains((int) recordedProtocol)) {
                // named as the version this process records for new queues, as the libraries name theirs
                throw new ProtocolVersionMismatchException(scope.queue(), forNewQueue, recordedProtocol);
            }
            scope.recordProtocol((int) recordedProtocol);
            layout = recorded;
        });
    }

    /** Re-reads the layout from the meta hash (after a LAYOUT answer, or periodically). */
    public CompletionStage<Layout> refresh() {
        return RecordedLayout.read(scope.commands(), scope.queue()).thenApply(recorded -> {
            recorded.ifPresent(r -> {
                layout = r.layout();
                // a reader that never verifies (the operator while a spec and Redis disagree on the shard count) still
                // routes by the recorded protocol; one this process does not speak is left to verify to refuse
                if (r.protocol() == QueueProtocol.PROTOCOL_VERSION || r.protocol() == QueueProtocol.BUCKETED) {
                    scope.recordProtocol((int) r.protocol());
                }
            });
            return layout;
        });
    }
}
