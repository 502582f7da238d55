package io.delayq.bulk;

import io.delayq.DelayQueueException;

/** A bulk run that cannot start or go on now (a reshard is running, the layout changed under a shift); nothing more was done. */
public class BulkRefusedException extends DelayQueueException {
    public BulkRefusedException(String message) {
        super(message);
    }
}
