package io.delayq.worker.settle;

import io.delayq.DurationText;
import io.delayq.claim.ClaimedTask;
import io.delayq.lease.RetryResult;
import io.delayq.task.TaskIdText;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One WARN line per failed attempt, saying which task failed where, why, and what happens next (a retry at a
 * time, or the dead-letter set): without it a handler's exception shows only in the task's last error, which
 * nobody reads until something is missing. A failure storm (a receiver down, a bug that hits every task) must
 * not flood the log, so at most {@link #LINES_PER_WINDOW} lines are printed per {@link #WINDOW}; the rest are
 * counted, and when the window is over one line says how many similar lines were suppressed.
 * {@code delayq_tasks_total} counts every outcome either way.
 */
public final class FailureLog {
    private static final Logger LOG = LoggerFactory.getLogger(FailureLog.class);
    /** Enough to see the first tasks of a storm (and every failure of a quiet worker) in full. */
    public static final int LINES_PER_WINDOW = 20;
    /** 20 lines per 10 s: two a second on average, one summary line per window while a storm lasts. */
    public static final Duration WINDOW = Duration.ofSeconds(10);
    /** The longest failure reason printed: the task's last error keeps up to 1,000 characters. */
    static final int REASON_MAX = 200;

    private final LongSupplier nanoTime;
    private final Consumer<String> sink;
    private final long windowNanos;
    private long windowStart;
    private int printed;
    private long suppressedRetried;
    private long suppressedDead;
    private long suppressedOther;

    public FailureLog() {
        this(System::nanoTime, LOG::warn);
    }

    FailureLog(LongSupplier nanoTime, Consumer<String> sink) {
        this.nanoTime = nanoTime;
        this.sink = sink;
        this.windowNanos = WINDOW.toNanos();
        // the first failure opens a window
        this.windowStart = nanoTime.getAsLong() - windowNanos;
    }

    /**
     * A failed attempt of {@code task} was recorded in Redis as {@code result}.
     *
     * @param maxAttempts the task's attempt limit (0: unlimited)
     * @param backoff     the wait a retry was given
     * @param deadBecause why a dead-letter happened when it was not for the attempts used up ("permanent failure", "expired")
     */
    public void failed(String queue, ClaimedTask task, int maxAttempts, String reason, RetryResult result, Duration backoff, String deadBecause) {
        String next = switch (result.status()) {
            case RETRIED -> "retry at " + Instant.ofEpochMilli(result.at()) + " (in " + DurationText.human(backoff.toMillis()) + ")";
            case DEAD -> "dead-lettered (" + (deadBecause != null ? deadBecause : "attempts used up") + ")";
            case STALE -> "not recorded: the lease ran out meanwhile, so the task is re-delivered (the attempt still counts)";
        };
        // the reason is free text: it goes last, so that the fixed part of every line reads the same
        record("task \"" + TaskIdText.show(task.id()) + "\" failed on attempt " + task.attempt() + (maxAttempts > 0 ? " of " + maxAttempts : "")
                + " (queue " + queue + ", shard " + task.shard() + "), " + next + ": " + shorten(reason), result.status());
    }

    /** Ends a window that is over, printing its summary: a storm that stops still reports what it suppressed. */
    public synchronized void tick() {
        long now = nanoTime.getAsLong();
        if (now - windowStart >= windowNanos && suppressed() > 0) {
            endWindow(now);
        }
    }

    private synchronized void record(String line, RetryResult.Status status) {
        long now = nanoTime.getAsLong();
        if (now - windowStart >= windowNanos) {
            endWindow(now);
        }
        if (printed < LINES_PER_WINDOW) {
            printed++;
            sink.accept(line);
        } else if (status == RetryResult.Status.RETRIED) {
            suppressedRetried++;
        } else if (status == RetryResult.Status.DEAD) {
            suppressedDead++;
        } else {
            suppressedOther++;
        }
    }

    private void endWindow(long now) {
        long n = suppressed();
        if (n > 0) {
            sink.accept("suppressed " + n + " similar lines (failed attempts: " + suppressedRetried + " retried, " + suppressedDead
                    + " dead-lettered" + (suppressedOther > 0 ? ", " + suppressedOther + " after their lease ran out" : "")
                    + ") in the last " + DurationText.human(Duration.ofNanos(now - windowStart).toMillis())
                    + "; at most " + LINES_PER_WINDOW + " such lines are printed per " + DurationText.format(WINDOW)
                    + ", delayq_tasks_total counts every outcome");
        }
        windowStart = now;
        printed = 0;
        suppressedRetried = 0;
        suppressedDead = 0;
        suppressedOther = 0;
    }

    private long suppressed() {
        return suppressedRetried + suppressedDead + suppressedOther;
    }

    /** One line, at most {@link #REASON_MAX} characters: a stack trace in a message must not spread over the log. */
    static String shorten(String reason) {
        if (reason == null || reason.isBlank()) {
            return "(no reason given)";
        }
        String line = reason.replaceAll("\\s+", " ").trim();
        return line.length() > REASON_MAX ? line.substring(0, REASON_MAX) + "…" : line;
    }
}
