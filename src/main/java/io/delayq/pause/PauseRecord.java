package io.delayq.pause;

/** What a pause.lua step answered: the queue's recorded state and the epoch (this call's, or the queue's latest). */
public record PauseRecord(PauseState state, long epoch) {
}
