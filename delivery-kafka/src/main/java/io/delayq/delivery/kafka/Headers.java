package io.delayq.delivery.kafka;

import io.delayq.handler.Task;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/** The headers of a task's record, as text: what a consumer needs besides the key (the id) and the value (the payload). */
public final class Headers {
    public static final String ID = "delayq-id";
    public static final String QUEUE = "delayq-queue";
    public static final String ATTEMPT = "delayq-attempt";
    /** When the task was due, epoch milliseconds. */
    public static final String DUE_AT = "delayq-due-at";

    private Headers() {
    }

    static RecordHeaders of(Task task) {
        RecordHeaders h = new RecordHeaders();
        h.add(ID, utf8(task.id()));
        h.add(QUEUE, utf8(task.queue()));
        h.add(ATTEMPT, utf8(String.valueOf(task.attempt())));
        h.add(DUE_AT, utf8(String.valueOf(task.dueAt())));
        return h;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
