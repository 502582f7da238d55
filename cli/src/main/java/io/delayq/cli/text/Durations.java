package io.delayq.cli.text;

import io.delayq.DurationText;
import io.delayq.InvalidInputException;

import java.time.Duration;

/** Durations as the worker reads them ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 14d} or ISO-8601), and as people read them. */
public final class Durations {
    private Durations() {
    }

    /**
     * @param field the option or column the text came from, named in the error
     */
    public static Duration parse(String field, String text) {
        Duration d = DurationText.parse(text);
        if (d == null || d == DurationText.TOO_LONG) {
            throw new InvalidInputException(field, "'" + text + "' is not a duration: use a whole number with ms, s, m, h or d "
                    + "(500ms, 30s, 5m, 2h, 14d) or ISO-8601 (PT30S)");
        }
        if (d.isNegative()) {
            throw new InvalidInputException(field, "must not be negative, got '" + text + "'");
        }
        return d;
    }

    /** A short, human form: {@code 450ms}, {@code 12s}, {@code 3m 05s}, {@code 2h 03m}, {@code 4d 02h}. */
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
}
