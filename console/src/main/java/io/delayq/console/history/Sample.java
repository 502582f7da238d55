package io.delayq.console.history;

/** A queue's backlog at one instant (server clock, epoch ms). {@code oldestOverdueMs}: the firing lag of the next task. */
public record Sample(long at, long scheduled, long due, long inflight, long dead, long oldestOverdueMs) {
}
