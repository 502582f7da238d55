package io.delayq.task;

import io.delayq.InvalidInputException;

import java.time.Duration;
import java.time.Instant;

/**
 * When a task is due: at an instant, or after a delay measured from the Redis server's clock
 * (the due time is computed inside the script, so a producer's clock skew does not matter).
 */
public record Schedule(Timing timing, long millis) {
    /** 9999-12-31T23:59:59.999Z: far beyond any business need, and exact as a double score. */
    public static final long MAX_EPOCH_MILLIS = 253_402_300_799_999L;

    public enum Timing {
        AT("at"), IN("in");

        private final String wire;

        Timing(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }
    }

    public static Schedule at(Instant instant) {
        if (instant == null) {
            throw new InvalidInputException("dueAt", "must not be null");
        }
        long ms;
        try {
            ms = instant.toEpochMilli();
        } catch (ArithmeticException e) {
            ms = Long.MAX_VALUE;
        }
        if (ms < 0 || ms > MAX_EPOCH_MILLIS) {
            throw new InvalidInputException("dueAt", "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got " + instant);
        }
        return new Schedule(Timing.AT, ms);
    }

    public static Schedule after(Duration delay) {
        if (delay == null) {
            throw new InvalidInputException("delay", "must not be null");
        }
        if (delay.isNegative()) {
            throw new InvalidInputException("delay", "must not be negative, got " + delay);
        }
        long ms;
        try {
            ms = delay.toMillis();
        } catch (ArithmeticException e) {
            ms = Long.MAX_VALUE;
        }
        // the due time (server now + delay) must stay within the score range
        if (ms > MAX_EPOCH_MILLIS - System.currentTimeMillis()) {
            throw new InvalidInputException("delay", "puts the due time beyond 9999-12-31T23:59:59.999Z, got " + delay);
        }
        return new Schedule(Timing.IN, ms);
    }

    public static Schedule now() {
        return new Schedule(Timing.IN, 0);
    }
}
