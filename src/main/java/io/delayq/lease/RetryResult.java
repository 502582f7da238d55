package io.delayq.lease;

/** The outcome of a retry-or-dead: the task was scheduled again, died, or the lease was no longer ours. */
public record RetryResult(Status status, long at) {
    public enum Status { RETRIED, DEAD, STALE }
}
