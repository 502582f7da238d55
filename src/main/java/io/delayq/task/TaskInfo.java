package io.delayq.task;

/**
 * Everything known about one task. {@code score} means the due time when SCHEDULED, the lease
 * expiry when IN_FLIGHT and the time of death when DEAD.
 */
public record TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                       String lastError, String rawRecord, long serverNow) {
    public enum State { SCHEDULED, IN_FLIGHT, DEAD, UNKNOWN }

    public boolean overdue() {
        return state == State.SCHEDULED && score <= serverNow;
    }
}
