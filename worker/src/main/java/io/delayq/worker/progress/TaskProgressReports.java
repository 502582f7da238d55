package io.delayq.worker.progress;

import io.delayq.claim.ClaimedTask;
import io.delayq.handler.Progress;
import io.delayq.worker.lease.Leased;

/**
 * The {@link Progress} of one running task: checks each report, keeps the latest, and writes it at most once per
 * interval under the lease's current fencing token. Nothing is written once the task is settling; a write that
 * loses a race with a lease renewal is sent again with the renewed token.
 */
public final class TaskProgressReports implements Progress {
    private final Leased leased;
    private final ProgressWrites writes;
    private final long intervalNanos;
    private Pending pending;
    private boolean scheduled;
    private boolean wroteOnce;
    private long lastWriteNanos;

    private record Pending(double percent, String note) {
    }

    TaskProgressReports(Leased leased, ProgressWrites writes) {
        this.leased = leased;
        this.writes = writes;
        this.intervalNanos = writes.interval().toNanos();
    }

    /** What a printed {@link io.delayq.handler.Task} shows (the test kit lists a handler's calls). */
    @Override
    public String toString() {
        return "progress of task " + leased.id();
    }

    @Override
    public void report(double percent, String note) {
        Progress.check(percent, note);
        long wait;
        synchronized (this) {
            pending = new Pending(percent, note);
            if (scheduled) {
                return; // the write already planned takes this value
            }
            scheduled = true;
            wait = wroteOnce ? lastWriteNanos + intervalNanos - System.nanoTime() : 0;
        }
        if (wait <= 0) {
            flush();
        } else if (!writes.later(this::flush, wait)) {
            synchronized (this) {
                scheduled = false;
            }
        }
    }

    private void flush() {
        Pending value;
        synchronized (this) {
            scheduled = false;
            value = pending;
            pending = null;
            if (value == null) {
                return;
            }
            lastWriteNanos = System.nanoTime();
            wroteOnce = true;
        }
        if (!leased.beginProgressWrite()) {
            return; // settling: the ack or retry may be on its way, and whatever this wrote would outlive the task
        }
        ClaimedTask sentWith = leased.task();
        writes.send(sentWith, value.percent(), value.note()).whenComplete((answer, error) -> {
            if (error == null && answer == 0 && !leased.lost() && leased.task().token() != sentWith.token()) {
                retryWithRenewedToken(value);
            }
        });
    }

    /** The lease was renewed while the write was out: the value goes out again with the new token, in its turn. */
    private void retryWithRenewedToken(Pending value) {
        long wait;
        synchronized (this) {
            if (pending == null) {
                pending = value;
            }
            if (scheduled) {
                return;
            }
            scheduled = true;
            wait = lastWriteNanos + intervalNanos - System.nanoTime();
        }
        if (!writes.later(this::flush, Math.max(0, wait))) {
            synchronized (this) {
                scheduled = false;
            }
        }
    }
}
