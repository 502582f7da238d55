package io.delayq.worker.dispatch;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * When each owned shard should be claimed next (monotonic nanos). The claim loop sleeps until the
 * earliest; markers, timers and freed handler capacity wake it early. Wake-ups only ever move a
 * shard earlier, so one arriving while that shard is being claimed is never lost.
 */
public final class WakeBoard {
    private static final long NEVER = Long.MAX_VALUE;
    private final int firstShard;
    private final long[] wakeAt;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean signalled;

    public WakeBoard(int firstShard, int count) {
        this.firstShard = firstShard;
        this.wakeAt = new long[count];
        Arrays.fill(wakeAt, System.nanoTime());
    }

    /** Claim {@code shard} no later than {@code atNanos}. */
    public void wake(int shard, long atNanos) {
        lock.lock();
        try {
            int i = shard - firstShard;
            if (atNanos - wakeAt[i] < 0 || wakeAt[i] == NEVER) {
                wakeAt[i] = atNanos;
            }
            signalled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Something else changed (capacity freed, shutdown): re-evaluate now. */
    public void nudge() {
        lock.lock();
        try {
            signalled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Takes the shard that is due soonest if it is due now (its slot is cleared until rescheduled), else -1. */
    public int takeReady() {
        lock.lock();
        try {
            long now = System.nanoTime();
            int best = -1;
            for (int i = 0; i < wakeAt.length; i++) {
                if (wakeAt[i] != NEVER && now - wakeAt[i] >= 0 && (best < 0 || wakeAt[i] - wakeAt[best] < 0)) {
                    best = i;
                }
            }
            if (best < 0) {
                return -1;
            }
            wakeAt[best] = NEVER;
            return best + firstShard;
        } finally {
            lock.unlock();
        }
    }

    /** How many shards are due now. */
    public int readyCount() {
        lock.lock();
        try {
            long now = System.nanoTime();
            int n = 0;
            for (long w : wakeAt) {
                if (w != NEVER && now - w >= 0) {
                    n++;
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /** Sleeps until the earliest shard is due, a wake-up arrives, or {@code maxNanos} passed. */
    public void awaitNext(long maxNanos) throws InterruptedException {
        lock.lock();
        try {
            if (signalled) {
                signalled = false;
                return;
            }
            long now = System.nanoTime();
            long wait = maxNanos;
            for (long w : wakeAt) {
                if (w != NEVER) {
                    wait = Math.min(wait, w - now);
                }
            }
            if (wait > 0) {
                changed.awaitNanos(wait);
            }
            signalled = false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sleeps until something signals or {@code maxNanos} passed, whatever the shards' times: the
     * loop waits here for handler capacity, when a shard being due already is no reason to wake.
     */
    public void awaitSignal(long maxNanos) throws InterruptedException {
        lock.lock();
        try {
            if (!signalled) {
                changed.awaitNanos(maxNanos);
            }
            signalled = false;
        } finally {
            lock.unlock();
        }
    }

    public long millisUntilNext() {
        lock.lock();
        try {
            long now = System.nanoTime();
            long min = NEVER;
            for (long w : wakeAt) {
                if (w != NEVER) {
                    min = Math.min(min, Math.max(0, w - now));
                }
            }
            return min == NEVER ? -1 : TimeUnit.NANOSECONDS.toMillis(min);
        } finally {
            lock.unlock();
        }
    }
}
