package io.delayq.bucket;

/** One reclaim sweep of a shard: tasks given back after their lease expired, dead-lettered, and promoted from coarse minutes into due windows. */
public record Swept(long givenBack, long deadLettered, long promoted) {
}
