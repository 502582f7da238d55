package io.delayq.worker.dispatch;

import io.delayq.shard.ShardRange;

import java.util.function.LongSupplier;

/**
 * The worker's estimate of the Redis server clock, learned from every claim's answer. Due times are server
 * times; converting them through this estimate keeps the worker precise even when its own wall clock is off (the
 * wall clock is only read, never trusted).
 *
 * <p>Wake-ups are planned on a lower bound of each shard's server clock, so that a claim is never sent before its
 * task is due (a claim that finds nothing costs Redis a script call, ~13 µs, for nothing). An answer says the
 * script read {@code now} (whole milliseconds) at some instant between the claim's sending and its answer, so at
 * that instant the server clock read at least {@code now} and less than {@code now + 1}: the server clock minus
 * {@link System#nanoTime} is at least {@code now - answered} and less than {@code now + 1 - sent}. The largest
 * lower bound of the answers of the last second or two is within a round trip of the truth (the answers fall at
 * every phase of the server's millisecond), where one answer alone could be a millisecond off either way. Bounds
 * are kept per shard: the primaries of a Redis Cluster each have their own clock.
 */
public final class ServerClock {
    /** A bound is taken from the answers of the current and the previous window: the clocks may drift apart slowly. */
    static final long WINDOW_NANOS = 1_000_000_000L;
    private static final long UNKNOWN = Long.MIN_VALUE;

    private final LongSupplier wallMillis;
    private final int firstShard;
    private final Bound[] bounds;
    private volatile long offsetMillis;

    public ServerClock(LongSupplier wallMillis, ShardRange range) {
        this.wallMillis = wallMillis;
        this.firstShard = range.from();
        this.bounds = new Bound[range.size()];
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = new Bound();
        }
    }

    /**
     * A claim on {@code shard} sent at {@code sentNanos} was answered at {@code answeredNanos} (System.nanoTime) with the
     * server time {@code serverNowMillis}.
     */
    public void observe(int shard, long serverNowMillis, long sentNanos, long answeredNanos) {
        offsetMillis = serverNowMillis - wallMillis.getAsLong();
        Bound b = bound(shard);
        if (b != null) {
            b.add(serverNowMillis * 1_000_000L - answeredNanos, (serverNowMillis + 1) * 1_000_000L - sentNanos, answeredNanos);
        }
    }

    /** The server clock now, in ms (lag, expiry, how much of a lease is left). */
    public long nowMillis() {
        return wallMillis.getAsLong() + offsetMillis;
    }

    /**
     * The first monotonic instant (System.nanoTime) at which {@code shard}'s server clock surely reads {@code serverMillis}
     * or later (may be in the past). Before the shard's first answer: the estimate from the wall clock.
     */
    public long nanoTimeAt(int shard, long serverMillis) {
        Bound b = bound(shard);
        long low = b == null ? UNKNOWN : b.low;
        if (low == UNKNOWN) {
            long delayMillis = serverMillis - nowMillis();
            return System.nanoTime() + Math.max(0, delayMillis) * 1_000_000L;
        }
        return serverMillis * 1_000_000L - low;
    }

    private Bound bound(int shard) {
        int i = shard - firstShard;
        return i >= 0 && i < bounds.length ? bounds[i] : null;
    }

    /** Lower bound of (server time in ns − System.nanoTime) for one shard: the largest of the last window or two. */
    private static final class Bound {
        private long current = UNKNOWN;
        private long previous = UNKNOWN;
        private long windowStart;
        volatile long low = UNKNOWN;

        synchronized void add(long sampleLow, long sampleHigh, long atNanos) {
            if (low != UNKNOWN && sampleHigh <= low) {
                // this answer contradicts the bound: the server clock was set back; start over from it
                current = previous = UNKNOWN;
            }
            long age = atNanos - windowStart;
            if (current == UNKNOWN || age >= WINDOW_NANOS) {
                previous = current != UNKNOWN && age < 2 * WINDOW_NANOS ? current : UNKNOWN;
                current = sampleLow;
                windowStart = atNanos;
            } else {
                current = Math.max(current, sampleLow);
            }
            low = Math.max(current, previous);
        }
    }
}
