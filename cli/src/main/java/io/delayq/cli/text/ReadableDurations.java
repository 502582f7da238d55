package io.delayq.cli.text;

/** Durations as people read them; they are parsed by core's {@link io.delayq.DurationText#require}, as the worker parses them. */
public final class ReadableDurations {
    private ReadableDurations() {
    }

    /** A short, human form: {@code 450ms}, {@code 12s}, {@code 3m 05s}, {@code 2h 03m}, {@code 4d 02h}. */
    public static String human(long millis) {
        return io.delayq.DurationText.human(millis);
    }
}
