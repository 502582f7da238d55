package io.delayq.worker.config;

import io.delayq.DurationText;

import java.time.Duration;

/** Parses the durations people write in env vars: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 14d} or ISO-8601. */
public final class Durations {
    /** Stands for a duration too long to represent; every range check rejects it. */
    static final Duration TOO_LONG = DurationText.TOO_LONG;

    private Durations() {
    }

    /** @return the duration, or {@code null} when the text is not one */
    public static Duration parse(String text) {
        return DurationText.parse(text);
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
