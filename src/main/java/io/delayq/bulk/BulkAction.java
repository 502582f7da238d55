package io.delayq.bulk;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;
import io.delayq.task.Schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * What a bulk run does to each task its filter takes.
 *
 * @param millis reschedule: the new due time (epoch ms); shift: the signed shift in ms; else 0
 * @param reason dead-letter: the reason recorded as the task's last error; else empty
 */
public record BulkAction(Kind kind, long millis, String reason) {
    public enum Kind {
        CANCEL("cancel"), RESCHEDULE("reschedule"), SHIFT("shift"), RUN_NOW("run-now"), DEAD_LETTER("dead");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        /** The name people type: cancel, reschedule, shift, run-now, dead-letter. */
        public String label() {
            return this == DEAD_LETTER ? "dead-letter" : wire;
        }

        public static Kind parse(String text) {
            String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
            for (Kind k : values()) {
                if (k.wire.equals(t) || k.label().equals(t)) {
                    return k;
                }
            }
            throw new InvalidInputException("action", "must be cancel, reschedule, shift, run-now or dead-letter, got '" + text + "'");
        }
    }

    public static final int MAX_REASON_BYTES = 1000;

    public BulkAction {
        reason = reason == null ? "" : reason;
        if (kind == Kind.RESCHEDULE && (millis < 0 || millis > Schedule.MAX_EPOCH_MILLIS)) {
            throw new InvalidInputException("at", "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got " + millis);
        }
        if (kind == Kind.SHIFT && (millis == 0 || Math.abs(millis) > Schedule.MAX_EPOCH_MILLIS)) {
            throw new InvalidInputException("shift", millis == 0 ? "must not be zero (a shift of 0 changes nothing)"
                    : "must be at most 9999-12-31T23:59:59.999Z's epoch ms either way, got " + millis + " ms");
        }
        if (kind == Kind.DEAD_LETTER && reason.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_REASON_BYTES) {
            throw new InvalidInputException("reason", "must be at most " + MAX_REASON_BYTES + " bytes");
        }
    }

    public static BulkAction cancel() {
        return new BulkAction(Kind.CANCEL, 0, "");
    }

    public static BulkAction reschedule(Instant at) {
        if (at == null) {
            throw new InvalidInputException("at", "is required to reschedule");
        }
        long ms;
        try {
            ms = at.toEpochMilli();
        } catch (ArithmeticException e) {
            throw new InvalidInputException("at", "must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got " + at);
        }
        return new BulkAction(Kind.RESCHEDULE, ms, "");
    }

    /** Every task's due time moved by a signed duration. */
    public static BulkAction shift(Duration by) {
        if (by == null) {
            throw new InvalidInputException("shift", "is required to shift");
        }
        long ms;
        try {
            ms = by.toMillis();
        } catch (ArithmeticException e) {
            throw new InvalidInputException("shift", "overflows: at most 9999-12-31T23:59:59.999Z's epoch ms either way, got " + by);
        }
        return new BulkAction(Kind.SHIFT, ms, "");
    }

    /** A shift written as "+2h", "-30m" or "2h" (a duration with an optional sign, as {@link DurationText} reads it). */
    public static BulkAction shift(String text) {
        String t = text == null ? "" : text.trim();
        boolean negative = t.startsWith("-");
        String body = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        Duration d = DurationText.parse(body);
        if (d == null) {
            throw new InvalidInputException("shift", "must be a duration with an optional sign, like +2h, -30m or 1d12h, got '" + text + "'");
        }
        if (d.equals(DurationText.TOO_LONG)) {
            throw new InvalidInputException("shift", "overflows: at most 9999-12-31T23:59:59.999Z's epoch ms either way, got '" + text + "'");
        }
        return shift(negative ? d.negated() : d);
    }

    public static BulkAction runNow() {
        return new BulkAction(Kind.RUN_NOW, 0, "");
    }

    public static BulkAction deadLetter(String reason) {
        return new BulkAction(Kind.DEAD_LETTER, 0, reason == null || reason.isBlank() ? "dead-lettered by a bulk action" : reason);
    }

    /** A shift later in time walks each shard from its latest task back, so that a moved task lands behind the cursor. */
    boolean descending() {
        return kind == Kind.SHIFT && millis > 0;
    }

    public String describe() {
        return switch (kind) {
            case CANCEL -> "cancel (delete with their records)";
            case RESCHEDULE -> "reschedule to " + Instant.ofEpochMilli(millis);
            case SHIFT -> "shift " + (millis > 0 ? "later by " : "earlier by ") + DurationText.human(Math.abs(millis));
            case RUN_NOW -> "run now (due at once)";
            case DEAD_LETTER -> "move to the dead letters (reason: " + reason + ")";
        };
    }
}
