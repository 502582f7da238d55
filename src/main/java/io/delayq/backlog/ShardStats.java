package io.delayq.backlog;

/**
 * The backlog of one shard at one instant of the server clock. {@code scheduled} waits for a
 * future due time, {@code due} is due now and not yet claimed. {@code paused}: the shard's pause
 * flag is set, so claims hand out nothing (the counts keep being reported).
 */
public record ShardStats(int shard, long serverNow, long scheduled, long due, long inflight, long dead, long oldestDueAt,
                         boolean paused) {

    public ShardStats(int shard, long serverNow, long scheduled, long due, long inflight, long dead, long oldestDueAt) {
        this(shard, serverNow, scheduled, due, inflight, dead, oldestDueAt, false);
    }

    /** How long the oldest unclaimed due task has been overdue, in ms; 0 when nothing is overdue. */
    public long oldestOverdueMillis() {
        return oldestDueAt < 0 ? 0 : Math.max(0, serverNow - oldestDueAt);
    }
}
