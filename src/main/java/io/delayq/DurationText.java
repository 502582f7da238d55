package io.delayq;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of delayq, shared by the worker's env vars, the CLI's options and the
 * DelayQueue spec: a whole number with {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}
 * ({@code 500ms}, {@code 30s}, {@code 14d}) or ISO-8601 ({@code PT30S}). Callers add their own
 * error message naming their field.
 */
public final class DurationText {
    /** Stands for a duration too long to represent; every range check rejects it. */
    public static final Duration TOO_LONG = Duration.ofSeconds(Long.MAX_VALUE);
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private DurationText() {
    }

    /** @return the duration, {@link #TOO_LONG} when it overflows, or {@code null} when the text is not a duration */
    public static Duration parse(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            try {
                long n = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } catch (NumberFormatException | ArithmeticException e) {
                return TOO_LONG;
            }
        }
        try {
            return Duration.parse(t);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The duration, for a value a person wrote into {@code field} (an option, a spec field, a variable).
     *
     * @throws InvalidInputException naming the field, when the text is not a duration, too long, or negative
     */
    public static Duration require(String field, String text) {
        Duration d = parse(text);
        if (d == null || d == TOO_LONG) {
            throw new InvalidInputException(field, "'" + text + "' is not a duration: use a whole number with ms, s, m, h or d "
                    + "(500ms, 30s, 5m, 2h, 14d) or ISO-8601 (PT30S)");
        }
        if (d.isNegative()) {
            throw new InvalidInputException(field, "must not be negative, got '" + text + "'");
        }
        return d;
    }

    /**
     * A short form for people, rounded (not read back): {@code 450ms}, {@code 12s}, {@code 3m 05s}, {@code 2h 03m},
     * {@code 4d 02h}. Every program of delayq shows ages and waits this way, so that the CLI and the console agree.
     */
    public static String human(long millis) {
        long ms = Math.abs(millis);
        String sign = millis < 0 ? "-" : "";
        if (ms < 1000) {
            return sign + ms + "ms";
        }
        long s = ms / 1000;
        if (s < 60) {
            long tenths = (ms % 1000) / 100;
            return sign + s + (tenths > 0 && s < 10 ? "." + tenths : "") + "s";
        }
        long m = s / 60;
        if (m < 60) {
            return sign + String.format("%dm %02ds", m, s % 60);
        }
        long h = m / 60;
        if (h < 24) {
            return sign + String.format("%dh %02dm", h, m % 60);
        }
        return sign + String.format("%dd %02dh", h / 24, h % 24);
    }

    /** {@code in 25s} or {@code 3m 05s ago}: how far {@code epochMillis} is from {@code now} (both on one clock). */
    public static String relative(long epochMillis, long now) {
        long d = epochMillis - now;
        return d >= 0 ? "in " + human(d) : human(-d) + " ago";
    }

    /** The shortest exact text {@link #parse} reads back: {@code 14d}, {@code 2h}, {@code 5m}, {@code 30s}, {@code 500ms}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 86_400_000 == 0 && ms > 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
