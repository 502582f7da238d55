package io.delayq.queue;

import io.delayq.DelayQueueException;
import io.delayq.shard.ShardKeys;

/**
 * The client is configured with a shard count the queue in Redis never had: writing would put tasks where no
 * worker looks. A count the queue had before a reshard is not refused (the client follows the layout in Redis),
 * so the message names the current count and the one way the count changes.
 */
public class ShardCountMismatchException extends DelayQueueException {
    public ShardCountMismatchException(String queue, int configured, long recorded) {
        super("shards: queue '" + queue + "' has " + recorded + " shards in Redis (" + ShardKeys.meta(queue) + ") and never had "
                + configured + ", the count this client is configured with; use " + recorded + " (or a count the queue had "
                + "before a reshard): the client reads the queue's layout from Redis and follows it, and the count changes "
                + "only through a reshard (delayq reshard " + queue + " --to N)");
    }
}
