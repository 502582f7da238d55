package io.delayq.claim;

import io.delayq.InvalidInputException;

/**
 * Dispatches per second across the whole fleet, with a burst, and optionally per group (protocol.md,
 * "Groups"): each group's tasks at most {@code groupPerSecond} across the fleet, with {@code groupBurst}.
 * Redis keeps the buckets per shard (a script touches one slot only), each refilled at
 * {@code perSecond / shards}; a group's tasks are spread over the shards by their ids, so its limit is
 * divided the same way.
 */
public record RateLimit(double perSecond, int burst, double groupPerSecond, int groupBurst) {
    public static final RateLimit NONE = new RateLimit(0, 0);

    public RateLimit {
        if (perSecond < 0) {
            throw new InvalidInputException("rateLimit", "must be 0 (none) or more, got " + perSecond);
        }
        if (perSecond > 0 && burst < 1) {
            throw new InvalidInputException("rateBurst", "must be at least 1 when a rate limit is set, got " + burst);
        }
        if (groupPerSecond < 0) {
            throw new InvalidInputException("groupRateLimit", "must be 0 (none) or more, got " + groupPerSecond);
        }
        if (groupPerSecond > 0 && groupBurst < 1) {
            throw new InvalidInputException("groupRateBurst", "must be at least 1 when a group rate limit is set, got " + groupBurst);
        }
    }

    public RateLimit(double perSecond, int burst) {
        this(perSecond, burst, 0, 0);
    }

    /** The same queue-wide limit, with a limit per group. */
    public RateLimit perGroup(double perSecond, int burst) {
        return new RateLimit(this.perSecond, this.burst, perSecond, burst);
    }

    public boolean enabled() {
        return perSecond > 0;
    }

    public boolean groupsLimited() {
        return groupPerSecond > 0;
    }

    public double perShard(int shards) {
        return perSecond / shards;
    }

    /** The burst is split like the rate, but never below one whole task per shard. */
    public int burstPerShard(int shards) {
        return split(burst, shards);
    }

    public double groupPerShard(int shards) {
        return groupPerSecond / shards;
    }

    public int groupBurstPerShard(int shards) {
        return split(groupBurst, shards);
    }

    private static int split(int burst, int shards) {
        return Math.max(1, (int) Math.ceil((double) burst / shards));
    }
}
