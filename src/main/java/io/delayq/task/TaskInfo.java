package io.delayq.task;

import io.delayq.completion.CompletionRecord;

/**
 * Everything known about one task. {@code score} means the due time when SCHEDULED, the lease
 * expiry when IN_FLIGHT, the time of death when DEAD and the time it finished when SUCCEEDED. {@code progress} is
 * what the handler of an IN_FLIGHT task last reported, null when it reported nothing (and in every other state).
 * {@code completion} is the completion record kept after an ack while the queue keeps results: the task's when
 * SUCCEEDED (no task of the id waits, runs or is dead), an earlier run's beside a live task of the same id
 * (enqueued again), null when none is kept.
 */
public record TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                       String lastError, String rawRecord, long serverNow, TaskProgress progress, CompletionRecord completion) {
    public enum State { SCHEDULED, IN_FLIGHT, DEAD, SUCCEEDED, UNKNOWN }

    public TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                    String lastError, String rawRecord, long serverNow, TaskProgress progress) {
        this(id, shard, state, score, priority, attempts, lastError, rawRecord, serverNow, progress, null);
    }

    public TaskInfo(String id, int shard, State state, long score, int priority, int attempts,
                    String lastError, String rawRecord, long serverNow) {
        this(id, shard, state, score, priority, attempts, lastError, rawRecord, serverNow, null);
    }

    public boolean overdue() {
        return state == State.SCHEDULED && score <= serverNow;
    }
}
