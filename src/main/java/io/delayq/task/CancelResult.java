package io.delayq.task;

/** The outcome of a cancel. */
public enum CancelResult {
    /** The task (scheduled or dead) and its record are gone. */
    CANCELLED,
    /** The task is running and was not touched. */
    IN_FLIGHT,
    /** No task has that id. */
    UNKNOWN
}
