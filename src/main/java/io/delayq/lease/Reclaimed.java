package io.delayq.lease;

/** Expired leases recovered by one reclaim call: put back to due, or dead-lettered. */
public record Reclaimed(long requeued, long dead) {
}
