package io.delayq.handler;

import java.time.Duration;

/** A failure that says when to try again (a Retry-After); counts as an attempt like any failure. */
public class RetryLater extends Exception {
    private final Duration after;

    public RetryLater(String message, Duration after) {
        super(message);
        this.after = after;
    }

    public Duration after() {
        return after;
    }
}
