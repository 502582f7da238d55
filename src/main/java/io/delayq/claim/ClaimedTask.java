package io.delayq.claim;

/**
 * A task handed to a worker under a lease. {@code token} is the lease expiry (epoch ms, server clock); on protocol 2
 * it is also the fencing token that ack, retry and extend present. On protocol 3 the fence is {@code flight}, the name
 * of the in-flight bucket the task was claimed with (null on protocol 2).
 */
public record ClaimedTask(int shard, String id, long dueAt, int attempt, long token, String rawRecord, String flight) {

    public ClaimedTask(int shard, String id, long dueAt, int attempt, long token, String rawRecord) {
        this(shard, id, dueAt, attempt, token, rawRecord, null);
    }

    public ClaimedTask withToken(long renewed) {
        return new ClaimedTask(shard, id, dueAt, attempt, renewed, rawRecord, flight);
    }
}
