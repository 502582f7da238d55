package io.delayq.client;

import io.delayq.DelayQueueException;
import io.delayq.task.EnqueueResult;

import java.util.List;

/**
 * An enqueue reached the primary, but fewer replicas than the client's {@code replicaAcks} confirmed
 * it within the time-out: a failover now could lose it. Retrying the same tasks is safe (ids are
 * deduplicated): the retry answers "duplicate" and waits for the replicas again.
 */
public final class ReplicaAckException extends DelayQueueException {
    private final int required;
    private final long acknowledged;
    private final transient List<EnqueueResult> results;

    public ReplicaAckException(int shard, List<EnqueueResult> results, int required, long acknowledged, long timeoutMillis) {
        super("enqueue of " + results.size() + " task(s) on shard " + shard + " reached the primary, but only " + acknowledged
                + " of the " + required + " required replica(s) acknowledged it within " + timeoutMillis
                + " ms (replicaAcks): it may be lost if the primary fails now; retrying is safe, ids are deduplicated");
        this.required = required;
        this.acknowledged = acknowledged;
        this.results = List.copyOf(results);
    }

    public int required() {
        return required;
    }

    public long acknowledged() {
        return acknowledged;
    }

    /** What the primary answered for each task of the call. */
    public List<EnqueueResult> results() {
        return results;
    }
}
