package io.delayq.handler;

/** A failure that retrying cannot fix (bad payload, entity gone): the task is dead-lettered at once. */
public class PermanentFailure extends Exception {
    public PermanentFailure(String message) {
        super(message);
    }

    public PermanentFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
