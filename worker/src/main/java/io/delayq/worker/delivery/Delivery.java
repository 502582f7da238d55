package io.delayq.worker.delivery;

import io.delayq.handler.Task;

/** A delivery target: turns one due task into an outcome. Implementations must be thread-safe. */
public interface Delivery extends AutoCloseable {
    Outcome deliver(Task task);

    /** Where tasks go, for the worker's start-up line: the handler class, the webhook URL, the stream key. */
    default String target() {
        return "a custom delivery (" + getClass().getName() + ")";
    }

    @Override
    default void close() {
    }
}
