package io.delayq.worker.progress;

import io.delayq.claim.ClaimedTask;
import io.delayq.queue.QueueProtocol;
import io.delayq.worker.lease.Leased;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes what handlers report about their progress to Redis, throttled: per task at most one write per
 * {@link #interval()}, the latest report winning. A handler that never reports costs nothing here, and a handler
 * reporting from a tight loop costs one script call per task per interval.
 */
public final class ProgressWrites implements AutoCloseable {
    /** At most one write per task per second: a watcher's refresh rate, and a bound on what a chatty handler costs Redis. */
    public static final Duration INTERVAL = Duration.ofSeconds(1);

    private final QueueProtocol protocol;
    private final Duration interval;
    private final ScheduledExecutorService timer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    public ProgressWrites(QueueProtocol protocol, Duration interval) {
        this.protocol = protocol;
        this.interval = interval;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "delayq-progress");
            t.setDaemon(true);
            return t;
        });
    }

    public Duration interval() {
        return interval;
    }

    /** The reports of the handler running {@code leased}. */
    public TaskProgressReports of(Leased leased) {
        return new TaskProgressReports(leased, this);
    }

    /** Progress writes Redis accepted. */
    public long written() {
        return written.get();
    }

    /** Progress writes Redis refused: the lease had moved on (settled, expired, or renewed while the write was out). */
    public long refused() {
        return refused.get();
    }

    CompletionStage<Long> send(ClaimedTask task, double percent, String note) {
        return protocol.progress(task, percent, note).whenComplete((answer, error) -> {
            if (error == null) {
                (answer == 1 ? written : refused).incrementAndGet();
            }
        });
    }

    /** Runs {@code flush} after {@code delayNanos}; false when the worker is stopping. */
    boolean later(Runnable flush, long delayNanos) {
        try {
            timer.schedule(flush, delayNanos, TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException stopping) {
            return false;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
