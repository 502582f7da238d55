package io.delayq.task;

/**
 * Everything known about one task. {@code score} means the due time when SCHEDULED, the lease
 * expiry when IN_FLIGHT and the time of death when DEAD. {@code progress} is what the handler of an
 * IN_FLIGHT task last reported, null when it reported nothing (and in every other state).
 */
public record TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                       String lastError, String rawRecord, long serverNow, TaskProgress progress) {
    public enum State { SCHEDULED, IN_FLIGHT, DEAD, UNKNOWN }

    public TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                    String lastError, String rawRecord, long serverNow) {
        this(id, shard, state, score, priority, attempts, lastError, rawRecord, serverNow, null);
    }

    public boolean overdue() {
        return state == State.SCHEDULED && score <= serverNow;
    }
}
