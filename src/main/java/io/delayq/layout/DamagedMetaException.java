package io.delayq.layout;

import io.delayq.DelayQueueException;
import io.delayq.shard.ShardKeys;

/** A field of a queue's meta hash holds what no delayq wrote there: named, so that the damage can be found. */
public final class DamagedMetaException extends DelayQueueException {
    public DamagedMetaException(String queue, String field, String value) {
        super(ShardKeys.meta(queue) + " holds " + field + "='" + value + "', not a number; the queue's meta hash is damaged");
    }
}
