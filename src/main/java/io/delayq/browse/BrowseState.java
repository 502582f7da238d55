package io.delayq.browse;

import io.delayq.InvalidInputException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The sets a browse reads, and what a task's score means in each. */
public enum BrowseState {
    /** In a due set, due later; score = due time. */
    SCHEDULED("scheduled"),
    /** In a due set, due now and not claimed yet (the backlog); score = due time. */
    DUE("due"),
    /** Claimed; score = lease expiry (the fencing token). */
    IN_FLIGHT("inflight"),
    /** Dead-lettered; score = time of death. */
    DEAD("dead");

    private final String wire;

    BrowseState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** Parses {@code scheduled}, {@code due}, {@code inflight} (also {@code in-flight}) or {@code dead}. */
    public static BrowseState parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        for (BrowseState s : values()) {
            if (s.wire.equals(t)) {
                return s;
            }
        }
        throw new InvalidInputException("state", "must be one of " + Arrays.stream(values()).map(BrowseState::wire)
                .collect(Collectors.joining(", ")) + ", got '" + text + "'");
    }
}
