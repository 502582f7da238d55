package io.delayq.worker.lease;

import io.delayq.claim.ClaimedTask;

/**
 * A claimed task while this worker holds it. The fencing token changes when the lease is
 * extended, so an extension and the final ack/retry must not overlap: a settle that arrives while
 * an extension is on the wire waits for its answer and then runs with the renewed token.
 */
public final class Leased {
    private enum State { RUNNING, EXTENDING, SETTLED }

    private static final java.lang.invoke.VarHandle RELEASED;

    static {
        try {
            RELEASED = java.lang.invoke.MethodHandles.lookup().findVarHandle(Leased.class, "released", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written under the lock (a renewal), read without it: every part of a task's run reads it. */
    private volatile ClaimedTask task;
    private final InflightRegistry.Claim claim;
    private volatile boolean released;
    private State state = State.RUNNING;
    private Runnable pendingSettle;
    private boolean settleRequested;
    /** What abandoning the running delivery does: interrupt its thread, or cancel its request; null when none runs. */
    private Runnable runner;
    private volatile long runningSinceNanos;
    /** How long the handler ran, once it returned; -1 before (and for a task that never ran). */
    private volatile long ranNanos = -1;
    private volatile long lastRenewedNanos;
    private volatile boolean lost;
    /** A progress write was sent under this lease: the settle deletes the progress entry (written under the lock). */
    private volatile boolean reportedProgress;
    /** The permit this task runs under when its group is capped at N running (given back when it leaves the registry). */
    private volatile io.delayq.claim.RunningPermits.Permit permit;
    /** What the ack keeps of this task while the queue keeps results; set when the outcome is done. */
    private volatile io.delayq.completion.Finished finished = io.delayq.completion.Finished.NO_RECORD;

    public Leased(ClaimedTask task) {
        this(task, null);
    }

    Leased(ClaimedTask task, InflightRegistry.Claim claim) {
        this(task, claim, System.nanoTime());
    }

    /** @param leasedAtNanos when the lease began (System.nanoTime): the claim's answer, read once for all its tasks */
    Leased(ClaimedTask task, InflightRegistry.Claim claim, long leasedAtNanos) {
        this.task = task;
        this.claim = claim;
        this.lastRenewedNanos = leasedAtNanos;
    }

    public ClaimedTask task() {
        return task;
    }

    public String id() {
        return task.id();
    }

    InflightRegistry.Claim claim() {
        return claim;
    }

    /** Marks the task no longer held; true for the first call only. */
    boolean release() {
        return RELEASED.compareAndSet(this, false, true);
    }

    boolean released() {
        return released;
    }

    public long lastRenewedNanos() {
        return lastRenewedNanos;
    }

    public boolean lost() {
        return lost;
    }

    /**
     * A progress write is about to be sent under this lease: true, and the settle will delete what it writes; false,
     * and nothing may be written, once the task is settling (its ack or retry could already be on the wire).
     */
    public synchronized boolean beginProgressWrite() {
        if (settleRequested) {
            return false;
        }
        reportedProgress = true;
        return true;
    }

    /** The task of a capped group runs under {@code permit}, taken before its claim. */
    public void runsUnder(io.delayq.claim.RunningPermits.Permit permit) {
        this.permit = permit;
    }

    /** The permit of a capped group's task, or null (none, or given back). */
    public io.delayq.claim.RunningPermits.Permit permit() {
        return permit;
    }

    /** The permit, to give back: the first caller gets it, later ones null (the handler's end and the registry both try). */
    public synchronized io.delayq.claim.RunningPermits.Permit takePermit() {
        io.delayq.claim.RunningPermits.Permit p = permit;
        permit = null;
        return p;
    }

    /** The task ran to a done outcome: what its completion record keeps. */
    public void finished(io.delayq.completion.Finished finished) {
        this.finished = finished;
    }

    public io.delayq.completion.Finished finished() {
        return finished;
    }

    /** Whether a progress write went out under this lease, so that the ack or retry deletes the progress entry. */
    public boolean reportedProgress() {
        return reportedProgress;
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

    /** The handler starts on {@code thread}. */
    public void startRun(Thread thread) {
        startRun(thread::interrupt);
    }

    /** The delivery starts; {@code abandon} stops it (its thread's interrupt, or the cancel of its request in flight). */
    public synchronized void startRun(Runnable abandon) {
        runner = abandon;
        runningSinceNanos = System.nanoTime();
    }

    /** The handler returned: from now on nothing interrupts its thread on this task's behalf. */
    public synchronized void endRun() {
        if (runningSinceNanos != 0) {
            ranNanos = System.nanoTime() - runningSinceNanos;
        }
        runner = null;
        runningSinceNanos = 0;
    }

    /** How long the handler ran, in ms, once it returned; -1 when it did not (yet). */
    public long handlerMillis() {
        long n = ranNanos;
        return n < 0 ? -1 : java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(n);
    }

    /** When the handler started (System.nanoTime), or 0 when it is not running. */
    public long runningSinceNanos() {
        return runningSinceNanos;
    }

    /**
     * The handler overran its deadline: interrupts it (cancels an asynchronous delivery) and settles with {@code action} in its place.
     * False when the handler already returned or the task is settling; whatever the handler
     * returns later is then ignored (see {@link #settle}).
     */
    public boolean abandon(Runnable action) {
        synchronized (this) {
            if (settleRequested || runner == null) {
                return false;
            }
            // the settle is taken first, so the handler's own (interrupted) result, or the cancelled request's
            // outcome (whose callbacks run inside cancel), finds the task settled instead of racing this one;
            // under the lock: endRun() cannot have run, so the thread is still inside this task's handler
            boolean now = takeSettle(action);
            Runnable stop = runner;
            runner = null;
            runningSinceNanos = 0;
            stop.run();
            if (!now) {
                return true;
            }
        }
        action.run();
        return true;
    }

    /**
     * Runs the ack / retry now, or right after the extension in flight has answered. Only the
     * first settle of a task counts: false (and nothing done) for a later one, e.g. the result of
     * a handler that was abandoned after its deadline.
     */
    public boolean settle(Runnable action) {
        synchronized (this) {
            if (settleRequested) {
                return false;
            }
            if (!takeSettle(action)) {
                return true;
            }
        }
        action.run();
        return true;
    }

    /** Marks the task settling (the caller holds the lock); false when {@code action} waits for the extension in flight. */
    private boolean takeSettle(Runnable action) {
        settleRequested = true;
        if (state == State.EXTENDING) {
            pendingSettle = action;
            return false;
        }
        state = State.SETTLED;
        return true;
    }
}
