package io.delayq.bulk;

import io.delayq.DelayQueueException;

/** A bulk filter that matches no waiting task: nothing was started and nothing changed. */
public class NothingMatchedException extends DelayQueueException {
    public NothingMatchedException(String message) {
        super(message);
    }
}
