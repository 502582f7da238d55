package io.delayq.completion;

import java.time.Duration;

/**
 * How long, and how many per shard, completion records are kept after an ack ({@code DELAYQ_RESULTS_KEEP},
 * {@code DELAYQ_RESULTS_MAX_PER_SHARD}). {@link #OFF} keeps none: the ack does what it did before.
 */
public record ResultRetention(Duration keep, long maxPerShard) {
    public static final ResultRetention OFF = new ResultRetention(Duration.ZERO, 0);

    public ResultRetention {
        if (keep.isNegative()) {
            throw new IllegalArgumentException("results keep: must not be negative, was " + keep);
        }
        if (!keep.isZero() && maxPerShard < 1) {
            throw new IllegalArgumentException("results max per shard: must be at least 1 while results are kept, was " + maxPerShard);
        }
    }

    public boolean on() {
        return !keep.isZero();
    }
}
