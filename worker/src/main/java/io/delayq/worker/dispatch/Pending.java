package io.delayq.worker.dispatch;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** A count of things started and not yet finished, and a wait until none is left (what a graceful stop waits for). */
final class Pending {
    private int count;

    void begin() {
        begin(1);
    }

    synchronized void begin(int n) {
        count += n;
    }

    void end() {
        end(1);
    }

    synchronized void end(int n) {
        count -= n;
        if (count == 0) {
            notifyAll();
        }
    }

    synchronized int count() {
        return count;
    }

    /** True when none is left within {@code timeout}. */
    synchronized boolean awaitNone(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
