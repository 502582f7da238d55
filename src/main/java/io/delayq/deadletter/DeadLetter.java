package io.delayq.deadletter;

/** One task in the dead-letter set with why it died. */
public record DeadLetter(int shard, String id, long diedAt, int attempts, String lastError, String rawRecord) {
}
