package io.delayq.worker.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the durations people write in env vars: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 14d} or ISO-8601. */
public final class Durations {
    private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /** Stands for a duration too long to represent; every range check rejects it. */
    static final Duration TOO_LONG = Duration.ofSeconds(Long.MAX_VALUE);

    private Durations() {
    }

    /** @return the duration, or {@code null} when the text is not one */
    public static Duration parse(String text) {
        String t = text.trim();
        Matcher m = SIMPLE.matcher(t);
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
                // a duration, only too long for any rule: the caller's range check names the bounds
                return TOO_LONG;
            }
        }
        try {
            return Duration.parse(t);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

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
