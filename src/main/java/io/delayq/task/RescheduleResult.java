package io.delayq.task;

/** The outcome of a reschedule and the task's due time (or other score) afterwards. */
public record RescheduleResult(Status status, long dueAt) {
    public enum Status { RESCHEDULED, IN_FLIGHT, DEAD, UNKNOWN }
}
