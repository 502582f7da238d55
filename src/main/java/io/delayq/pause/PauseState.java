package io.delayq.pause;

/** Whether a queue is paused as its meta hash records it: since when (server ms, -1 when not) and by whom. */
public record PauseState(boolean paused, long pausedAt, String by) {
}
