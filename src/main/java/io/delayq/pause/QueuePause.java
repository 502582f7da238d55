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
 * Every call takes an epoch from the meta hash and a shard keeps the state of the highest epoch it saw:
 * two people pausing and resuming at once end with the record and every shard in the later call's state.
 */
public final class QueuePause {
    private final QueueProtocol protocol;
    private final PauseScripts scripts;

    public QueuePause(QueueProtocol protocol) {
        this.protocol = protocol;
        this.scripts = new PauseScripts(protocol.scope());
    }

    /** The pause as recorded in the meta hash. */
    public CompletionStage<PauseState> state() {
        return scripts.pauseState();
    }

    /** Pauses every shard; answers the recorded state (the first pause's time and author are kept). */
    public CompletionStage<PauseState> pause(String who) {
        return scripts.recordPause(PauseStep.PAUSE, who, 0)
                .thenCompose(r -> allShards(true, r.epoch()))
                .thenCompose(changed -> scripts.pauseState());
    }

    /** Resumes every shard; answers the state recorded afterwards (still paused when a later pause overtook this resume). */
    public CompletionStage<PauseState> resume(String who) {
        return scripts.recordPause(PauseStep.RESUME, who, 0)
                .thenCompose(r -> allShards(false, r.epoch()).thenCompose(changed -> scripts.recordPause(PauseStep.RESUMED, who, r.epoch())))
                .thenApply(PauseRecord::state);
    }

    /** The shards whose flag changed, in parallel over the shared connection. */
    private CompletionStage<Integer> allShards(boolean pause, long epoch) {
        List<CompletableFuture<Boolean>> calls = new ArrayList<>(protocol.shards());
        for (int s = 0; s < protocol.shards(); s++) {
            calls.add(scripts.pauseShard(s, pause, epoch).toCompletableFuture());
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(v -> (int) calls.stream().filter(CompletableFuture::join).count());
    }
}
