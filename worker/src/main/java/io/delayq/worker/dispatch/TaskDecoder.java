package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskRecord;
import io.delayq.handler.Task;

/**
 * Turns a claimed task into what a handler sees, rejecting a record that does not follow the protocol
 * (written by hand or by a buggy producer) so the worker dead-letters it with the reason instead of
 * handing garbage to business logic or looping on it. Ids and due scores were already checked by the
 * claim script (include/malformed.lua), which dead-letters what breaks them.
 */
public final class TaskDecoder {
    private TaskDecoder() {
    }

    public static Task decode(String queue, ClaimedTask claimed) throws MalformedTask {
        return decodeWithOptions(queue, claimed).task();
    }

    /** The task and the per-task options of its record (expiry, retry overrides, trace context). */
    public static Decoded decodeWithOptions(String queue, ClaimedTask claimed) throws MalformedTask {
        TaskRecord record;
        try {
            record = TaskRecord.decode(claimed.rawRecord());
        } catch (TaskRecord.MalformedRecordException e) {
            throw new MalformedTask(e.getMessage());
        } catch (RuntimeException e) {
            throw new MalformedTask("task record does not follow the protocol: " + e.getMessage());
        }
        return new Decoded(new Task(queue, claimed.shard(), claimed.id(), claimed.attempt(), claimed.dueAt(), record.payload(),
                record.enqueuedAt(), record.priorityLevel()), record.options());
    }

    public record Decoded(Task task, TaskOptions options) {
    }

    public static final class MalformedTask extends Exception {
        public MalformedTask(String message) {
            super(message);
        }
    }
}
