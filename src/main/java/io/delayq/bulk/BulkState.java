package io.delayq.bulk;

import io.delayq.InvalidInputException;

import java.util.Locale;

/** Which waiting tasks a bulk filter takes by their due time against the Redis clock when each batch runs. */
public enum BulkState {
    /** Every waiting task, whatever its due time. */
    WAITING("all"),
    /** Due later than the batch's server time. */
    SCHEDULED("scheduled"),
    /** Due at or before the batch's server time and not claimed yet. */
    DUE("due");

    private final String wire;

    BulkState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BulkState parse(String text) {
        if (text == null || text.isBlank()) {
            return WAITING;
        }
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "waiting", "all" -> WAITING;
            case "scheduled" -> SCHEDULED;
            case "due" -> DUE;
            default -> throw new InvalidInputException("state", "must be waiting, scheduled or due (tasks in flight are never "
                    + "touched by a bulk action), got '" + text + "'");
        };
    }
}
