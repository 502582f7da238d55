package io.delayq.layout;

import io.delayq.DelayQueueException;

/**
 * An id-addressed operation could not settle on a layout in time: the layout kept changing, or a task
 * stayed "moving" (a migration whose mover is not running). Safe to retry: nothing was written.
 */
public final class LayoutChangedException extends DelayQueueException {
    public LayoutChangedException(String message) {
        super(message);
    }
}
