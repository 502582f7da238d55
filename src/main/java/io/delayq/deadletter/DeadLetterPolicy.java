package io.delayq.deadletter;

import io.delayq.InvalidInputException;

import java.time.Duration;

/** Bounds of the dead-letter set of each shard; 0 / zero duration means unbounded. */
public record DeadLetterPolicy(long maxCount, Duration maxAge) {
    public static final DeadLetterPolicy DEFAULT = new DeadLetterPolicy(100_000, Duration.ofDays(14));

    public DeadLetterPolicy {
        if (maxCount < 0) {
            throw new InvalidInputException("deadLetterMaxCount", "must be 0 (unbounded) or more, got " + maxCount);
        }
        if (maxAge == null || maxAge.isNegative()) {
            throw new InvalidInputException("deadLetterMaxAge", "must be zero (unbounded) or positive, got " + maxAge);
        }
    }
}
