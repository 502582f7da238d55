package io.delayq.schedule;

import io.delayq.InvalidInputException;

/**
 * What a schedule with a business calendar does with an occurrence that does not fall on a business day
 * (judged in the calendar's zone).
 */
public enum CalendarRule {
    /**
     * The occurrence does not happen: Quartz's calendar semantics (a trigger's fire times that its
     * calendar excludes are skipped). The default.
     */
    SKIP("skip"),
    /**
     * The occurrence fires at the next business moment instead: the start of the next business day
     * (Quartz's {@code Calendar.getNextIncludedTime}). Several occurrences of one closed stretch
     * (a weekend, a holiday run) fire once.
     */
    ROLL("roll");

    private final String wire;

    CalendarRule(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static CalendarRule fromWire(String text) {
        for (CalendarRule r : values()) {
            if (r.wire.equals(text) || r.name().equals(text)) {
                return r;
            }
        }
        throw new InvalidInputException("calendarRule", "must be skip or roll, got " + text);
    }
}
