package io.delayq.claim;

/**
 * A task handed to a worker under a lease. {@code token} is the lease expiry (epoch ms, server
 * clock) and the fencing token: ack, retry and extend must present it.
 */
public record ClaimedTask(int shard, String id, long dueAt, int attempt, long token, String rawRecord) {

    public ClaimedTask withToken(long renewed) {
        return new ClaimedTask(shard, id, dueAt, attempt, renewed, rawRecord);
    }
}
