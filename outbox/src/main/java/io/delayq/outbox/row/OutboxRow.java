package io.delayq.outbox.row;

import io.delayq.InvalidInputException;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.Schedule;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;

import java.time.Instant;

/**
 * One row of {@code delayq_outbox} as the relay read it, columns as they are (a row written by hand in
 * another language may break any rule; {@link #task()} and {@link #duplicatePolicy()} check them).
 */
public record OutboxRow(long seq, String op, String queue, String taskId, Instant dueAt, String payload, int priority,
                        String dedup, String options, Instant createdAt) {

    public Operation operation() {
        try {
            return Operation.fromWire(op);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("op", "must be enqueue, cancel or reschedule, got '" + op + "'");
        }
    }

    /** The task an enqueue row describes; the due time is absolute (a delay was turned into one by the database at insert). */
    public TaskSpec task() {
        TaskOptions parsed = options == null || options.isBlank() ? TaskOptions.NONE : parseOptions();
        return new TaskSpec(taskId, schedule(), payload, priority, parsed);
    }

    /** The due time of an enqueue or reschedule row; null means "now" (on the Redis clock). */
    public Schedule schedule() {
        return dueAt == null ? Schedule.now() : Schedule.at(dueAt);
    }

    public DuplicatePolicy duplicatePolicy() {
        String wire = dedup == null ? "reject" : dedup;
        for (DuplicatePolicy p : DuplicatePolicy.values()) {
            if (p.wire().equals(wire)) {
                return p;
            }
        }
        throw new InvalidInputException("dedup", "must be reject, replace, keep-earlier, future-only or once, got '" + dedup + "'");
    }

    /** The options column is the JSON record form's option fields (protocol.md), read by the worker's own decoder. */
    private TaskOptions parseOptions() {
        if (!options.trim().startsWith("{")) {
            throw new InvalidInputException("options", "must be a JSON object, got '" + options + "'");
        }
        try {
            return TaskRecord.decode(options).options();
        } catch (TaskRecord.MalformedRecordException e) {
            throw new InvalidInputException("options", e.getMessage());
        }
    }
}
