package io.delayq.queue;

import io.delayq.DelayQueueException;

/** The queue in Redis was written by a delayq of another protocol version. */
public class ProtocolVersionMismatchException extends DelayQueueException {
    public ProtocolVersionMismatchException(String queue, int supported, long recorded) {
        this(queue, java.util.Set.of(supported), recorded);
    }

    public ProtocolVersionMismatchException(String queue, java.util.Set<Integer> spoken, long recorded) {
        super("protocol: queue '" + queue + "' uses delayq protocol version " + recorded
                + " in Redis, this client speaks " + (spoken.size() == 1 ? "version " + spoken.iterator().next()
                : "versions " + spoken.stream().sorted().map(String::valueOf).collect(java.util.stream.Collectors.joining(" and ")))
                + "; the key layout and record format differ between versions, so every producer and worker of a queue must speak the same one");
    }
}
