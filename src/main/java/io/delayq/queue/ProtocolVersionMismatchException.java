package io.delayq.queue;

import io.delayq.DelayQueueException;

/** The queue in Redis was written by a delayq of another protocol version. */
public class ProtocolVersionMismatchException extends DelayQueueException {
    public ProtocolVersionMismatchException(String queue, int supported, long recorded) {
        super("protocol: queue '" + queue + "' uses delayq protocol version " + recorded
                + " in Redis, this client speaks version " + supported
                + "; the key layout and record format differ between versions, so every producer and worker of a queue must speak the same one");
    }
}
