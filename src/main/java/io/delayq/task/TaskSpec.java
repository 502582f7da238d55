package io.delayq.task;

import io.delayq.InvalidInputException;

import java.time.Duration;
import java.time.Instant;

/**
 * A task to enqueue: its id, when it is due, an optional payload, a priority level and optional
 * per-task {@link TaskOptions} (expiry, retry overrides, trace context).
 */
public record TaskSpec(String id, Schedule schedule, String payload, int priority, TaskOptions options) {

    public TaskSpec {
        TaskId.require(id);
        if (schedule == null) {
            schedule = Schedule.now();
        }
        Priority.require(priority);
        if (options == null) {
            options = TaskOptions.NONE;
        }
        if (options.group() != null && priority != Priority.NORMAL) {
            throw new InvalidInputException("group", "cannot be combined with priority " + priority
                    + ": a grouped task has priority 0 (groups are served round robin, each in due-time order)");
        }
        if (schedule.timing() == Schedule.Timing.AT) {
            TaskOptions.requireExpiryAfter(options.expiresAt(), schedule.millis(), "dueAt");
        }
    }

    public TaskSpec(String id, Schedule schedule, String payload, int priority) {
        this(id, schedule, payload, priority, TaskOptions.NONE);
    }

    public static TaskSpec of(String id) {
        return new TaskSpec(id, Schedule.now(), null, Priority.NORMAL);
    }

    public TaskSpec at(Instant due) {
        return new TaskSpec(id, Schedule.at(due), payload, priority, options);
    }

    public TaskSpec after(Duration delay) {
        return new TaskSpec(id, Schedule.after(delay), payload, priority, options);
    }

    /**
     * Due at {@code time} (in the calendar's zone) on the {@code days}-th business day after {@code from}: the day
     * {@code from} falls on is day 0 when it is a business day, else the next business day is
     * ({@link io.delayq.calendar.BusinessTime#afterBusinessDays}). {@code Calendars.of(client)} reads calendars and Redis' clock.
     */
    public TaskSpec afterBusinessDays(io.delayq.calendar.BusinessCalendar calendar, Instant from, int days, java.time.LocalTime time) {
        return at(io.delayq.calendar.BusinessTime.afterBusinessDays(calendar, from, days, time));
    }

    /** Due at {@code due}, or at the start of the next business day when {@code due} is not on one. */
    public TaskSpec atNextBusinessMoment(io.delayq.calendar.BusinessCalendar calendar, Instant due) {
        return at(io.delayq.calendar.BusinessTime.rollForward(calendar, due));
    }

    public TaskSpec payload(String text) {
        return new TaskSpec(id, schedule, text, priority, options);
    }

    public TaskSpec priority(int level) {
        return new TaskSpec(id, schedule, payload, level, options);
    }

    /** Not run when not started by {@code deadline}: dead-lettered with the reason {@code expired: ...}. */
    public TaskSpec expiresAt(Instant deadline) {
        return expiresAt(deadline, ExpiryAction.DEAD_LETTER);
    }

    /** Not run when not started by {@code deadline}; {@code action} says whether it is dead-lettered or discarded. */
    public TaskSpec expiresAt(Instant deadline, ExpiryAction action) {
        if (deadline == null) {
            throw new InvalidInputException("expiresAt", "must not be null");
        }
        if (action == null) {
            throw new InvalidInputException("onExpiry", "must not be null");
        }
        long ms;
        try {
            ms = deadline.toEpochMilli();
        } catch (ArithmeticException e) {
            ms = Long.MAX_VALUE;
        }
        return new TaskSpec(id, schedule, payload, priority,
                options.withExpiry(ms, action == ExpiryAction.DEAD_LETTER ? null : action));
    }

    /** Attempts before the dead-letter set for this task, instead of the worker's DELAYQ_RETRY_MAX_ATTEMPTS. */
    public TaskSpec maxAttempts(int attempts) {
        return new TaskSpec(id, schedule, payload, priority,
                options.withRetry(attempts, options.backoffMs(), options.backoffMaxMs(), options.backoffMultiplier()));
    }

    /** This task's exponential backoff (first delay, cap, growth per attempt), instead of the worker's; the worker's jitter applies. */
    public TaskSpec backoff(Duration initial, Duration max, double multiplier) {
        if (initial == null || max == null) {
            throw new InvalidInputException(initial == null ? "backoffMs" : "backoffMaxMs", "must not be null");
        }
        return new TaskSpec(id, schedule, payload, priority,
                options.withRetry(options.maxAttempts(), millis(initial, "backoffMs"), millis(max, "backoffMaxMs"), multiplier));
    }

    /**
     * A dedup window: once this task is acked, cancelled or dead-lettered, enqueues of its id are refused (status
     * {@link EnqueueResult.Status#WINDOW}) for {@code window}, whatever their duplicate policy. 1 ms to 30 days.
     */
    public TaskSpec dedupWindow(Duration window) {
        if (window == null) {
            throw new InvalidInputException("dedupWindowMs", "must not be null");
        }
        return new TaskSpec(id, schedule, payload, priority, options.withDedupWindow(windowMillis(window)));
    }

    /**
     * Debounce: due after {@code delay}, and with {@link DuplicatePolicy#DEBOUNCE} each later enqueue of the id
     * while it waits replaces it and pushes its due time, never past the burst's first enqueue + {@code maxWait}
     * (1 ms to 30 days).
     */
    public TaskSpec debounce(Duration delay, Duration maxWait) {
        if (maxWait == null) {
            throw new InvalidInputException("debounceMaxWaitMs", "must not be null");
        }
        TaskSpec later = after(delay);
        return new TaskSpec(id, later.schedule, payload, priority, options.withDebounce(windowMillis(maxWait)));
    }

    /** All per-task options at once (null: none), e.g. as a command line or a file row gives them. */
    public TaskSpec options(TaskOptions all) {
        return new TaskSpec(id, schedule, payload, priority, all);
    }

    /**
     * Puts the task into group {@code key} (a tenant, a customer): the claim serves the due groups of a shard
     * round robin, so one group's burst does not delay another's tasks, and a per-group rate limit applies
     * (DELAYQ_GROUP_RATE_LIMIT). 1 to 64 ASCII letters, digits and {@code - _ . : @ /}; null: no group.
     */
    public TaskSpec group(String key) {
        return new TaskSpec(id, schedule, payload, priority, options.withGroup(TaskGroup.require(key)));
    }

    /**
     * Records this W3C trace context instead of the caller's current one (enqueue records
     * {@link TraceContext#current()} by itself when this is not called).
     */
    public TaskSpec traceContext(String traceparent, String tracestate) {
        return new TaskSpec(id, schedule, payload, priority, options.withTrace(new TraceContext(traceparent, tracestate)));
    }

    /** The same task with {@code context} recorded, unless it already carries one (or {@code context} is null). */
    public TaskSpec withTraceIfAbsent(TraceContext context) {
        return context == null || options.trace() != null ? this
                : new TaskSpec(id, schedule, payload, priority, options.withTrace(context));
    }

    /**
     * Checks what depends on the clock: an expiry already past, or before a delay-based due time, judged on
     * the producer's clock {@code nowMillis} (the worker decides on the Redis clock).
     */
    public void requireNotExpired(long nowMillis) {
        Long at = options.expiresAt();
        if (at == null) {
            return;
        }
        if (schedule.timing() == Schedule.Timing.IN) {
            TaskOptions.requireExpiryAfter(at, nowMillis + schedule.millis(), "due time (now + delay)");
        } else if (at <= nowMillis) {
            throw new InvalidInputException("expiresAt", "is in the past (" + Instant.ofEpochMilli(at) + ")");
        }
    }

    public TaskRecord record(long enqueuedAt) {
        return new TaskRecord(payload, enqueuedAt, priority == Priority.NORMAL ? null : priority, options);
    }

    /** A window's ms, negative ones too: TaskOptions refuses anything outside 1 ms .. 30 days with the window rule. */
    private static long windowMillis(Duration d) {
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private static long millis(Duration d, String field) {
        if (d.isNegative()) {
            throw new InvalidInputException(field, "must not be negative, got " + d);
        }
        try {
            return d.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
