package io.delayq.queue;

import io.delayq.DelayQueueException;

/** The queue in Redis was created with another shard count: writing would put tasks where no worker looks. */
public class ShardCountMismatchException extends DelayQueueException {
    public ShardCountMismatchException(String queue, int configured, long recorded) {
        super("shards: queue '" + queue + "' has " + recorded + " shards in Redis (" + io.delayq.shard.ShardKeys.meta(queue)
                + "), but this client is configured with " + configured + "; use " + recorded
                + " (the shard count of a queue cannot change)");
    }
}
