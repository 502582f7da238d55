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

    /** What the registry reads of a job's state. */
    public interface Outcome {
        /** Whether the job still runs. */
        boolean running();

        /** Whether it ended with an error (a stop counts as one). */
        boolean failed();

        /** When it ended (null while it runs). */
        Instant endedAt();
    }

    /** The job's thread name. */
    protected abstract String threadName();

    /** How the job stands now. */
    public abstract Outcome state();

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
