package io.delayq.schedule;

import io.delayq.InvalidInputException;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What the planner does with occurrences that passed by more than the misfire threshold while no
 * planner ran (fleet down, schedule paused). The names follow Quartz's misfire instructions.
 */
public enum MisfirePolicy {
    /** Quartz's FIRE_ONCE_NOW: the missed occurrences collapse into one, fired now (the default). */
    FIRE_ONCE_NOW("fireOnceNow"),
    /** Quartz's DO_NOTHING: missed occurrences are skipped; the schedule goes on with the next one. */
    DO_NOTHING("doNothing"),
    /** Quartz's IGNORE_MISFIRE_POLICY: each missed occurrence fires, the latest {@code misfireLimit} of them. */
    FIRE_ALL_MISSED("fireAllMissed");

    private final String wire;

    MisfirePolicy(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static MisfirePolicy fromWire(String text) {
        for (MisfirePolicy p : values()) {
            if (p.wire.equals(text) || p.name().equals(text)) {
                return p;
            }
        }
        throw new InvalidInputException("misfirePolicy", "must be one of "
                + Arrays.stream(values()).map(MisfirePolicy::wire).collect(Collectors.joining(", ")) + ", got " + text);
    }
}
