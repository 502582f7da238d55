package io.delayq.cli.text;

/** Durations as people read them; they are parsed by core's {@link io.delayq.DurationText#require}, as the worker parses them. */
public final class Durations {
    private Durations() {
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
