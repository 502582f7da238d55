package io.delayq.task;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.delayq.InvalidInputException;

import java.time.Duration;
import java.time.Instant;

/**
 * The optional per-task controls kept in the task record (protocol.md, "Per-task options"); every field
 * may be null, meaning "the worker's setting". The rules live here once: the clients apply them at
 * enqueue ({@link InvalidInputException} naming the field), the worker's record decoder applies them to
 * what hand-written producers stored ({@link TaskRecord.MalformedRecordException} naming the field).
 *
 * @param expiresAt   epoch ms: a task not started by then is not run (dead-lettered as {@code expired}, or discarded)
 * @param onExpiry    what happens to it then; null = {@link ExpiryAction#DEAD_LETTER}
 * @param maxAttempts attempts (counted at claim) before the dead-letter set, instead of DELAYQ_RETRY_MAX_ATTEMPTS
 * @param backoffMs   first retry delay, instead of DELAYQ_RETRY_BACKOFF_INITIAL
 * @param backoffMaxMs cap of the retry delay, instead of DELAYQ_RETRY_BACKOFF_MAX
 * @param backoffMultiplier growth per attempt, instead of DELAYQ_RETRY_BACKOFF_MULTIPLIER
 * @param trace       the producer's W3C trace context
 * @param group       the task's group key ({@link TaskGroup}): claimed fairly against other groups, with their rate limit
 * @param dedupWindowMs a dedup window: after the task is acked, cancelled or dead-lettered, an enqueue of its id is
 *                    refused (status WINDOW) for this long (protocol.md, "Dedup windows")
 * @param debounceMaxWaitMs with {@link DuplicatePolicy#DEBOUNCE}: the longest a burst of enqueues of the id may push
 *                    its due time, counted from the burst's first enqueue
 * @param debounceDeadline written by the enqueue script, not by producers: the burst's deadline (epoch ms)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskOptions(Long expiresAt, ExpiryAction onExpiry, Integer maxAttempts, Long backoffMs, Long backoffMaxMs,
                          Double backoffMultiplier, TraceContext trace, String group, Long dedupWindowMs,
                          Long debounceMaxWaitMs, Long debounceDeadline) {
    public static final TaskOptions NONE = new TaskOptions(null, null, null, null, null, null, null, null);
    /** The longest dedup window and debounce wait: 30 days (include/dedup.lua, DEDUP_MAX_MS). */
    public static final long MAX_WINDOW_MS = Duration.ofDays(30).toMillis();
    /** 2000-01-01T00:00:00Z: an earlier "epoch ms" is almost surely seconds. */
    public static final long MIN_EPOCH_MILLIS = 946_684_800_000L;
    public static final int MAX_ATTEMPTS = 1000;
    public static final long MAX_BACKOFF_MS = Duration.ofDays(30).toMillis();
    public static final double MAX_MULTIPLIER = 100;

    public TaskOptions {
        require("expiresAt", expiresAtProblem(expiresAt));
        require("maxAttempts", maxAttemptsProblem(maxAttempts));
        require("backoffMs", backoffProblem(backoffMs));
        require("backoffMaxMs", backoffProblem(backoffMaxMs));
        require("backoffMultiplier", multiplierProblem(backoffMultiplier));
        require("group", TaskGroup.problem(group));
        require("dedupWindowMs", windowProblem(dedupWindowMs));
        require("debounceMaxWaitMs", windowProblem(debounceMaxWaitMs));
        if (backoffMs != null && backoffMaxMs != null && backoffMaxMs < backoffMs) {
            throw new InvalidInputException("backoffMaxMs", "must not be below backoffMs (" + backoffMs + "), got " + backoffMaxMs);
        }
        if (onExpiry != null && expiresAt == null) {
            throw new InvalidInputException("onExpiry", "needs an expiresAt");
        }
    }

    /** Without a dedup window or debounce. */
    public TaskOptions(Long expiresAt, ExpiryAction onExpiry, Integer maxAttempts, Long backoffMs, Long backoffMaxMs,
                       Double backoffMultiplier, TraceContext trace, String group) {
        this(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, group, null, null, null);
    }

    /** Without a group: the options as they were before groups. */
    public TaskOptions(Long expiresAt, ExpiryAction onExpiry, Integer maxAttempts, Long backoffMs, Long backoffMaxMs,
                       Double backoffMultiplier, TraceContext trace) {
        this(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, null);
    }

    private static void require(String field, String problem) {
        if (problem != null) {
            throw new InvalidInputException(field, problem);
        }
    }

    public boolean isEmpty() {
        return equals(NONE);
    }

    /** True when the record carries a retry override (the worker then reads it when it settles a failure). */
    public boolean overridesRetry() {
        return maxAttempts != null || backoffMs != null || backoffMaxMs != null || backoffMultiplier != null;
    }

    public ExpiryAction expiryAction() {
        return onExpiry == null ? ExpiryAction.DEAD_LETTER : onExpiry;
    }

    public TaskOptions withExpiry(Long at, ExpiryAction action) {
        return new TaskOptions(at, action, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, group, dedupWindowMs, debounceMaxWaitMs, debounceDeadline);
    }

    public TaskOptions withRetry(Integer attempts, Long initialMs, Long maxMs, Double multiplier) {
        return new TaskOptions(expiresAt, onExpiry, attempts, initialMs, maxMs, multiplier, trace, group, dedupWindowMs, debounceMaxWaitMs, debounceDeadline);
    }

    public TaskOptions withTrace(TraceContext context) {
        return new TaskOptions(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, context, group, dedupWindowMs, debounceMaxWaitMs, debounceDeadline);
    }

    public TaskOptions withGroup(String key) {
        return new TaskOptions(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, key, dedupWindowMs, debounceMaxWaitMs, debounceDeadline);
    }

    public TaskOptions withDedupWindow(Long ms) {
        return new TaskOptions(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, group, ms,
                debounceMaxWaitMs, debounceDeadline);
    }

    public TaskOptions withDebounce(Long maxWaitMs) {
        return new TaskOptions(expiresAt, onExpiry, maxAttempts, backoffMs, backoffMaxMs, backoffMultiplier, trace, group,
                dedupWindowMs, maxWaitMs, debounceDeadline);
    }

    static String windowProblem(Long ms) {
        return ms == null || (ms >= 1 && ms <= MAX_WINDOW_MS) ? null
                : "must be 1 to " + MAX_WINDOW_MS + " ms (30 days), got " + ms;
    }

    static String expiresAtProblem(Long ms) {
        if (ms == null || (ms >= MIN_EPOCH_MILLIS && ms <= Schedule.MAX_EPOCH_MILLIS)) {
            return null;
        }
        return "must be epoch milliseconds between 2000-01-01 and 9999-12-31 (" + MIN_EPOCH_MILLIS + " to "
                + Schedule.MAX_EPOCH_MILLIS + "), got " + ms + (ms > 0 && ms < MIN_EPOCH_MILLIS / 100 ? " (seconds instead of ms?)" : "");
    }

    static String maxAttemptsProblem(Integer n) {
        return n == null || (n >= 1 && n <= MAX_ATTEMPTS) ? null : "must be 1 to " + MAX_ATTEMPTS + ", got " + n;
    }

    static String backoffProblem(Long ms) {
        return ms == null || (ms >= 0 && ms <= MAX_BACKOFF_MS) ? null
                : "must be 0 to " + MAX_BACKOFF_MS + " ms (30 days), got " + ms;
    }

    static String multiplierProblem(Double m) {
        return m == null || (Double.isFinite(m) && m >= 1 && m <= MAX_MULTIPLIER) ? null
                : "must be a number from 1 to " + (int) MAX_MULTIPLIER + ", got " + m;
    }

    /** An expiry for a task due at {@code dueAt} (ms, null when computed by the server from a delay), judged at {@code now}. */
    static void requireExpiryAfter(Long expiresAt, long dueAt, String dueField) {
        if (expiresAt != null && expiresAt <= dueAt) {
            throw new InvalidInputException("expiresAt", "must be after the task's " + dueField + " (" + Instant.ofEpochMilli(dueAt)
                    + "), got " + Instant.ofEpochMilli(expiresAt) + ": the task would expire before it could run");
        }
    }
}
