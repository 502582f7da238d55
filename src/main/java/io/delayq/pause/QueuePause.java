package io.delayq.pause;

import io.delayq.queue.QueueProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Pauses and resumes a whole queue. The meta hash records the pause (pause.lua); the per-shard
 * flags (shard_pause.lua) are what claims honour, since a claim only touches its own shard's slot.
 * Pausing writes the record first and the flags after; resuming clears the flags first and the record
 * last, so that a half-done call leaves the record saying "paused" and running it again finishes it.
 */
public final class QueuePause {
    private final QueueProtocol protocol;

    public QueuePause(QueueProtocol protocol) {
        this.protocol = protocol;
    }

    /** Pauses every shard; answers the recorded state (the first pause's time and author are kept). */
    public CompletionStage<PauseState> pause(String who) {
        return protocol.recordPause(true, who).thenCompose(state -> allShards(true).thenApply(changed -> state));
    }

    public CompletionStage<PauseState> resume(String who) {
        return allShards(false).thenCompose(changed -> protocol.recordPause(false, who));
    }

    /** The shards whose flag changed, in parallel over the shared connection. */
    private CompletionStage<Integer> allShards(boolean pause) {
        List<CompletableFuture<Boolean>> calls = new ArrayList<>(protocol.shards());
        for (int s = 0; s < protocol.shards(); s++) {
            calls.add(protocol.pauseShard(s, pause).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(v -> (int) calls.stream().filter(CompletableFuture::join).count());
    }
}
