package io.delayq.task;

import java.time.Duration;
import java.time.Instant;

/** A task to enqueue: its id, when it is due, an optional payload and a priority level. */
public record TaskSpec(String id, Schedule schedule, String payload, int priority) {

    public TaskSpec {
        TaskId.require(id);
        if (schedule == null) {
            schedule = Schedule.now();
        }
        Priority.require(priority);
    }

    public static TaskSpec of(String id) {
        return new TaskSpec(id, Schedule.now(), null, Priority.NORMAL);
    }

    public TaskSpec at(Instant due) {
        return new TaskSpec(id, Schedule.at(due), payload, priority);
    }

    public TaskSpec after(Duration delay) {
        return new TaskSpec(id, Schedule.after(delay), payload, priority);
    }

    public TaskSpec payload(String text) {
        return new TaskSpec(id, schedule, text, priority);
    }

    public TaskSpec priority(int level) {
        return new TaskSpec(id, schedule, payload, level);
    }

    public TaskRecord record(long enqueuedAt) {
        return new TaskRecord(payload, enqueuedAt, priority == Priority.NORMAL ? null : priority);
    }
}
