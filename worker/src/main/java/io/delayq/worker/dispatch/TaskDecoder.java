package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
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
        TaskRecord record;
        try {
            record = TaskRecord.decode(claimed.rawRecord());
        } catch (TaskRecord.MalformedRecordException e) {
            throw new MalformedTask(e.getMessage());
        } catch (RuntimeException e) {
            throw new MalformedTask("task record does not follow the protocol: " + e.getMessage());
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
