package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskRecord;
import io.delayq.handler.Task;

/**
 * Turns a claimed task into what a handler sees, rejecting data that does not follow the protocol
 * (written by hand or by a buggy producer) so the worker dead-letters it with the reason instead of
 * handing garbage to business logic or looping on it.
 */
public final class TaskDecoder {
    /** 2000-01-01T00:00:00Z: a smaller score is almost surely seconds, not milliseconds. */
    static final long EARLIEST_PLAUSIBLE_DUE = 946_684_800_000L;

    private TaskDecoder() {
    }

    public static Task decode(String queue, ClaimedTask claimed) throws MalformedTask {
        if (claimed.dueAt() < EARLIEST_PLAUSIBLE_DUE) {
            throw new MalformedTask("due score " + claimed.dueAt() + " is not epoch milliseconds (before 2000-01-01; seconds instead of ms?)");
        }
        TaskRecord record;
        try {
            record = TaskRecord.decode(claimed.rawRecord());
        } catch (TaskRecord.MalformedRecordException e) {
            throw new MalformedTask(e.getMessage());
        } catch (RuntimeException e) {
            throw new MalformedTask("task record does not follow the protocol: " + e.getMessage());
        }
        if (record == null) {
            throw new MalformedTask("task record is JSON null, not an object");
        }
        return new Task(queue, claimed.shard(), claimed.id(), claimed.attempt(), claimed.dueAt(), record.payload(),
                record.enqueuedAt(), record.priorityLevel());
    }

    public static final class MalformedTask extends Exception {
        public MalformedTask(String message) {
            super(message);
        }
    }
}
