package io.delayq.operator.resource;

/**
 * The duration syntax that the worker reads ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h},
 * {@code 14d} or ISO-8601 such as {@code PT30S}), as the CRD checks it. The operator parses the few
 * durations it needs itself (stabilisation window, shutdown grace) with core's
 * {@link io.delayq.DurationText#require}, the parser the worker uses.
 */
public final class Durations {
    /** Checked by the API server (RE2 syntax). */
    public static final String PATTERN =
            "^([0-9]+(ms|s|m|h|d)|P([0-9]+D)?(T([0-9]+H)?([0-9]+M)?([0-9]+(\\.[0-9]+)?S)?)?)$";

    private Durations() {
    }
}
