package io.delayq.presence;

import io.delayq.shard.ShardRange;

/**
 * One worker as the presence registry ({@code dq:{q}:workers}) holds it.
 *
 * @param startedAt   Redis time of its first heartbeat, epoch ms
 * @param heartbeatAt Redis time of its latest heartbeat, epoch ms
 * @param ttlMs       how long after its latest heartbeat it counts as alive
 * @param held        how many leases it held at that heartbeat
 * @param delivered   deliveries it settled since it started (acked, retried or dead-lettered) at that heartbeat; -1 when
 *                    the worker does not report it (an earlier build). Two heartbeats give its throughput.
 */
public record WorkerPresence(String id, ShardRange shards, String version, String host, long startedAt, long heartbeatAt, long ttlMs,
                             int held, long delivered) {

    /** Alive at Redis time {@code now}: its heartbeat plus TTL is still ahead. */
    public boolean aliveAt(long now) {
        return heartbeatAt + ttlMs >= now;
    }

    public boolean owns(int shard) {
        return shard >= shards.from() && shard <= shards.to();
    }
}
