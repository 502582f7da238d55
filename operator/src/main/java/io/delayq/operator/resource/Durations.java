package io.delayq.operator.resource;

import io.delayq.DurationText;

import java.time.Duration;
import java.util.regex.Matcher;

/**
 * The duration syntax that the worker reads ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h},
 * {@code 14d} or ISO-8601 such as {@code PT30S}). The CRD checks it with {@link #PATTERN}; the
 * operator parses the few durations it needs itself (stabilisation window, shutdown grace).
 */
public final class Durations {
    /** Checked by the API server (RE2 syntax) and by {@link #parse(String, String)}. */
    public static final String PATTERN =
            "^([0-9]+(ms|s|m|h|d)|P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?)$";
    private static final java.util.regex.Pattern COMPILED = java.util.regex.Pattern.compile(PATTERN);

    private Durations() {
    }

    /**
     * @param field the spec field, named in the error
     * @throws IllegalArgumentException naming the field when the text is not a duration
     */
    public static Duration parse(String text, String field) {
        Matcher m = text == null ? null : COMPILED.matcher(text);
        if (m == null || !m.matches() || text.equals("P") || text.endsWith("T")) {
            throw new IllegalArgumentException(field + " must be a duration such as 500ms, 30s, 5m, 2h, 14d or PT30S, got '" + text + "'");
        }
        Duration d = DurationText.parse(text);
        if (d == null || d == DurationText.TOO_LONG) {
            throw new IllegalArgumentException(field + " must be a duration such as 500ms, 30s, 5m, 2h, 14d or PT30S, got '" + text + "'");
        }
        return d;
    }
}
