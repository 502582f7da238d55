package io.delayq.worker.delivery;

import io.delayq.handler.Task;

/** A delivery target: turns one due task into an outcome. Implementations must be thread-safe. */
public interface Delivery extends AutoCloseable {
    Outcome deliver(Task task);

    @Override
    default void close() {
    }
}
