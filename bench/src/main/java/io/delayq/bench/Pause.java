package io.delayq.bench;

/** Sleeps that give up quietly when the harness is interrupted (it is shutting down). */
final class Pause {
    private Pause() {
    }

    static void millis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Parks until the monotonic instant {@code deadlineNanos} (no spinning: the machine is shared). */
    static void until(long deadlineNanos) {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }
}
