package io.delayq;

/** Base of every error delayq raises on purpose. */
public class DelayQueueException extends RuntimeException {
    public DelayQueueException(String message) {
        super(message);
    }

    public DelayQueueException(String message, Throwable cause) {
        super(message, cause);
    }
}
