package io.delayq.pause;

import io.delayq.queue.QueueScope;
import io.delayq.script.LuaScript;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import static io.delayq.redis.Replies.asLong;

/** The pause record in the queue's meta hash and the shards' pause flags; {@link QueuePause} orders the calls. */
public final class PauseScripts {
    private final QueueScope scope;

    public PauseScripts(QueueScope scope) {
        this.scope = scope;
    }

    /**
     * One step of a pause or resume in the queue's meta hash (pause.lua): the record, with who did it,
     * and the epoch that orders this call's shard writes against every other call's.
     *
     * @param epoch for {@link PauseStep#RESUMED}: the epoch its {@link PauseStep#RESUME} step answered; else ignored
     */
    public CompletionStage<PauseRecord> recordPause(PauseStep step, String who, long epoch) {
        return scope.scripts().<List<Object>>run(LuaScript.PAUSE, List.of(scope.meta()), List.of(step.wire(), who == null ? "" : who,
                        step == PauseStep.RESUMED ? Long.toString(epoch) : ""))
                .thenApply(r -> new PauseRecord(new PauseState(asLong(r.get(1)) >= 0, asLong(r.get(1)), (String) r.get(2)), asLong(r.get(3))));
    }

    /** The pause as recorded in the meta hash (a plain read: no script needed). */
    public CompletionStage<PauseState> pauseState() {
        return scope.commands().hmget(scope.meta(), "paused", "pausedBy").thenApply(kv -> {
            String at = kv.get(0).getValueOrElse(null);
            return at == null ? new PauseState(false, -1, "") : new PauseState(true, Long.parseLong(at), kv.get(1).getValueOrElse(""));
        });
    }

    /**
     * Sets or clears one shard's pause flag (shard_pause.lua) on behalf of the call that took {@code epoch};
     * true when it changed, false when it already was so or a call with a later epoch had decided it.
     */
    public CompletionStage<Boolean> pauseShard(int shard, boolean pause, long epoch) {
        List<String> k = new ArrayList<>(scope.keys(shard).scriptKeys());
        k.add(scope.keys(shard).paused());
        return scope.scripts().<Long>run(LuaScript.SHARD_PAUSE, k, List.of(pause ? "1" : "0", Long.toString(epoch))).thenApply(v -> v == 1);
    }
}
