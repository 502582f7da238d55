package io.delayq.testkit;

/** A task parked in the dead-letter set after {@code attempts} calls, with the {@code reason} Redis keeps for it. */
public record DeadLettered(String id, int attempts, String reason) {
}
