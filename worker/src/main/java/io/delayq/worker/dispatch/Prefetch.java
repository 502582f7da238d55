package io.delayq.worker.dispatch;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many claimed tasks may wait in the worker beyond its handler slots: about {@link #WINDOW_NANOS} of work (a
 * quarter of the lease if that is shorter) at the rate handlers finished tasks in the last measurement, at most
 * {@code max}.
 *
 * <p>Without a buffer a worker with 16 slots claims 16 tasks at a time at most (with 16 shards due: one per
 * claim), and a claim's round trip leaves the handlers idle. With it, fast handlers keep a claim's worth of tasks
 * in hand. Sized by the measured rate, a buffered task waits about one window for a thread — never near its lease
 * (which {@code LeaseKeeper} renews for every task held anyway) — and slow or stuck handlers get no buffer at all,
 * so their backlog stays in Redis for other workers.
 */
final class Prefetch {
    /**
     * The buffer holds about this much work at the measured rate: enough to hide a claim's round trip (a millisecond or
     * two) many times over, and short, because a task claimed later waits behind it: with groups, a quiet tenant's task
     * during a noisy burst waited ~130 ms behind a 100 ms buffer and ~35 ms behind this one, at the same drain
     * (docs/bench-fairness.md).
     */
    static final long WINDOW_NANOS = 25_000_000L;
    /** The rate is re-measured this often, so that a worker starting on a backlog reaches its buffer quickly. */
    static final long MEASURE_NANOS = 20_000_000L;
    private final int max;
    private final long windowNanos;
    private final LongAdder finished = new LongAdder();
    private long windowStart = System.nanoTime();
    private volatile int allowance;

    /** @param lease the claim lease: a buffer holds at most a quarter of it in work, so a buffered task starts well inside it */
    Prefetch(int max, java.time.Duration lease) {
        this.max = max;
        this.windowNanos = Math.min(WINDOW_NANOS, lease.toNanos() / 4);
    }

    int max() {
        return max;
    }

    /** A handler finished a task (any thread). */
    void finished() {
        finished.increment();
    }

    /** The buffer allowed now; rolls the window (called from the claim loop's thread only). */
    int allowance(long nowNanos) {
        long elapsed = nowNanos - windowStart;
        if (elapsed >= MEASURE_NANOS) {
            long n = finished.sumThenReset();
            windowStart = nowNanos;
            // the tasks a WINDOW_NANOS at this rate finishes; a measurement that ran long (the loop slept) scales down
            allowance = (int) Math.min(max, n * windowNanos / elapsed);
        }
        return allowance;
    }
}
