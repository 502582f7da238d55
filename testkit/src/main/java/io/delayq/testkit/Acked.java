package io.delayq.testkit;

/** A task the handler finished: acked after {@code attempts} calls (1 unless it failed before). */
public record Acked(String id, int attempts) {
}
