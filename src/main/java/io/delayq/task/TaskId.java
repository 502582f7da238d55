package io.delayq.task;

import io.delayq.InvalidInputException;

import java.nio.charset.StandardCharsets;

/** Task ids are chosen by the application (usually the business key) and are its idempotency key. */
public final class TaskId {
    public static final int MAX_BYTES = 256;

    private TaskId() {
    }

    public static String require(String id) {
        if (id == null || id.isEmpty()) {
            throw new InvalidInputException("id", "must not be empty");
        }
        int bytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new InvalidInputException("id", "must be at most " + MAX_BYTES + " bytes of UTF-8, got " + bytes);
        }
        return id;
    }
}
