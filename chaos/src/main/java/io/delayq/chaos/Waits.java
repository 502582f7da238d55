package io.delayq.chaos;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on conditions (polled), never on hope. */
public final class Waits {
    private Waits() {
    }

    /** Polls {@code condition} every {@code poll} until it holds; false when {@code timeout} passed first. */
    public static boolean until(Duration timeout, Duration poll, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /** As {@link #until}, but a timeout is an error naming what did not happen. */
    public static void require(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        if (!until(timeout, Duration.ofMillis(100), condition)) {
            throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for: " + what);
        }
    }

    /** Sleeps until the scenario's clock reaches {@code atNanos} (a scheduled fault, not a wait for a result). */
    public static void sleepUntil(long atNanos) throws InterruptedException {
        long left = atNanos - System.nanoTime();
        if (left > 0) {
            Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
        }
    }
}
