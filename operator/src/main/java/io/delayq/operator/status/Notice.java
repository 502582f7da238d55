package io.delayq.operator.status;

/** An Event to record on the DelayQueue: type Normal or Warning, a CamelCase reason, a message for a person. */
public record Notice(String type, String reason, String message) {
    public static Notice warning(String reason, String message) {
        return new Notice("Warning", reason, message);
    }

    public static Notice normal(String reason, String message) {
        return new Notice("Normal", reason, message);
    }
}
