package io.delayq.operator.jobs;

import java.time.Duration;
import java.time.Instant;

/**
 * A job the operator runs for one DelayQueue on a daemon thread of its own (a reshard, an upgrade of the protocol).
 * Everything such a job needs is in Redis, so one that was stopped (operator shut down, Lease lost, DelayQueue
 * deleted) or failed is resumed by starting another: the next leader's, or this operator's next reconcile.
 */
public abstract class QueueJob implements Runnable {
    private volatile boolean stopping;
    private volatile Thread thread;

    /** The job's thread name. */
    protected abstract String threadName();

    /** Whether the job still runs. */
    public abstract boolean running();

    /** Whether it ended with an error (a stop counts as one), and when it ended (null while it runs). */
    public abstract boolean failed();

    public abstract Instant endedAt();

    /** Starts the job on a daemon thread of its own. */
    void start() {
        Thread t = new Thread(this, threadName());
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Stops after the current script call; what it left in Redis is resumed by the next job. */
    public void stop() {
        stopping = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    protected boolean stopping() {
        return stopping;
    }

    /** Waits for the job's thread to end, up to {@code timeout}; true when it has. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        Thread t = thread;
        if (t != null) {
            t.join(timeout.toMillis());
            return !t.isAlive();
        }
        return true;
    }
}
