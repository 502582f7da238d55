package io.delayq.worker.lease;

import io.delayq.claim.ClaimedTask;

/**
 * A claimed task while this worker holds it. The fencing token changes when the lease is
 * extended, so an extension and the final ack/retry must not overlap: a settle that arrives while
 * an extension is on the wire waits for its answer and then runs with the renewed token.
 */
public final class Leased {
    private enum State { RUNNING, EXTENDING, SETTLED }

    private ClaimedTask task;
    private State state = State.RUNNING;
    private Runnable pendingSettle;
    private volatile long lastRenewedNanos;
    private volatile boolean lost;

    public Leased(ClaimedTask task) {
        this.task = task;
        this.lastRenewedNanos = System.nanoTime();
    }

    public synchronized ClaimedTask task() {
        return task;
    }

    public synchronized String id() {
        return task.id();
    }

    public long lastRenewedNanos() {
        return lastRenewedNanos;
    }

    public boolean lost() {
        return lost;
    }

    /** Marks the start of an extension; false when the task is settling or an extension is already out. */
    synchronized boolean beginExtend() {
        if (state != State.RUNNING) {
            return false;
        }
        state = State.EXTENDING;
        return true;
    }

    /** The extension's answer: the new token, or 0 when the lease was lost (the task was re-delivered). */
    void endExtend(long newToken) {
        Runnable settle;
        synchronized (this) {
            if (newToken > 0) {
                task = task.withToken(newToken);
                lastRenewedNanos = System.nanoTime();
            } else {
                lost = true;
            }
            settle = pendingSettle;
            pendingSettle = null;
            state = settle != null ? State.SETTLED : State.RUNNING;
        }
        if (settle != null) {
            settle.run();
        }
    }

    /** Runs the ack / retry now, or right after the extension in flight has answered. */
    public void settle(Runnable action) {
        synchronized (this) {
            if (state == State.EXTENDING) {
                pendingSettle = action;
                return;
            }
            state = State.SETTLED;
        }
        action.run();
    }
}
