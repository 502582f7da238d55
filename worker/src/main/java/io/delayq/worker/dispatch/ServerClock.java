package io.delayq.worker.dispatch;

import java.util.function.LongSupplier;

/**
 * The worker's estimate of the Redis server clock, learned from every claim's answer. Due times
 * are server times; converting them through this offset keeps the worker precise even when its own
 * wall clock is off (the wall clock is only read, never trusted).
 */
public final class ServerClock {
    private final LongSupplier wallMillis;
    private volatile long offsetMillis;

    public ServerClock(LongSupplier wallMillis) {
        this.wallMillis = wallMillis;
    }

    public void observe(long serverNowMillis) {
        offsetMillis = serverNowMillis - wallMillis.getAsLong();
    }

    public long nowMillis() {
        return wallMillis.getAsLong() + offsetMillis;
    }

    /** The monotonic instant (System.nanoTime) at which the server clock reads {@code serverMillis}. */
    public long nanoTimeAt(long serverMillis) {
        long delayMillis = serverMillis - nowMillis();
        return System.nanoTime() + Math.max(0, delayMillis) * 1_000_000L;
    }
}
