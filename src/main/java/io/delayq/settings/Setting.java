package io.delayq.settings;

import io.delayq.DurationText;

import java.time.Duration;

/**
 * One variable of the worker contract: its name, its default and the bounds the worker accepts.
 * The operator writes values by these names, {@link Settings} reads them with these defaults and
 * bounds, so a variable is spelled, defaulted and bounded in one place ({@link WorkerSettings}).
 */
public sealed interface Setting permits Setting.Whole, Setting.Decimal, Setting.Span, Setting.Text {
    String name();

    /** A whole number in {@code [min, max]}. */
    record Whole(String name, long fallback, long min, long max) implements Setting {
        public int intFallback() {
            return Math.toIntExact(fallback);
        }
    }

    /** A number in {@code [min, max]}. */
    record Decimal(String name, double fallback, double min, double max) implements Setting {
    }

    /** A duration in {@code [min, max]}, written as {@link DurationText} reads it. */
    record Span(String name, Duration fallback, Duration min, Duration max) implements Setting {
        /** From duration texts ({@code "30s"}), as the variable's documentation writes them. */
        static Span of(String name, String fallback, String min, String max) {
            return new Span(name, DurationText.parse(fallback), DurationText.parse(min), DurationText.parse(max));
        }
    }

    /** Free text (a URL, a name, a path); its rule, if any, is checked by whoever reads it. */
    record Text(String name) implements Setting {
    }
}
