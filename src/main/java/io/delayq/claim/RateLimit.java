package io.delayq.claim;

import io.delayq.InvalidInputException;

/**
 * Dispatches per second across the whole fleet, with a burst. Redis keeps one token bucket per
 * shard (a script touches one slot only), each refilled at {@code perSecond / shards}.
 */
public record RateLimit(double perSecond, int burst) {
    public static final RateLimit NONE = new RateLimit(0, 0);

    public RateLimit {
        if (perSecond < 0) {
            throw new InvalidInputException("rateLimit", "must be 0 (none) or more, got " + perSecond);
        }
        if (perSecond > 0 && burst < 1) {
            throw new InvalidInputException("rateBurst", "must be at least 1 when a rate limit is set, got " + burst);
        }
    }

    public boolean enabled() {
        return perSecond > 0;
    }

    public double perShard(int shards) {
        return perSecond / shards;
    }

    /** The burst is split like the rate, but never below one whole task per shard. */
    public int burstPerShard(int shards) {
        return Math.max(1, (int) Math.ceil((double) burst / shards));
    }
}
