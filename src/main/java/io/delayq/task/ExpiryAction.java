package io.delayq.task;

import io.delayq.InvalidInputException;

/** What becomes of a task that was not started by its {@code expiresAt}. */
public enum ExpiryAction {
    /** Into the dead-letter set with the reason {@code expired: ...} (the default): visible, replayable. */
    DEAD_LETTER("dead-letter"),
    /** Deleted like an acked task, counted in {@code delayq_tasks_expired_total{action="discard"}}. */
    DISCARD("discard");

    private final String wire;

    ExpiryAction(String wire) {
        this.wire = wire;
    }

    /** As stored in the record's {@code onExpiry} field. */
    public String wire() {
        return wire;
    }

    public static ExpiryAction fromWire(String text) {
        for (ExpiryAction a : values()) {
            if (a.wire.equals(text)) {
                return a;
            }
        }
        throw new InvalidInputException("onExpiry", "must be \"dead-letter\" or \"discard\", got \"" + text + "\"");
    }
}
