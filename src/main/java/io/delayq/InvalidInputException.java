package io.delayq;

/** Bad input, named by the field and the rule it broke; nothing was written to Redis. */
public class InvalidInputException extends DelayQueueException {
    private final String field;

    public InvalidInputException(String field, String rule) {
        super(field + ": " + rule);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
