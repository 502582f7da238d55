package io.delayq.bucket;

import java.util.List;

/** What one protocol-3 claim took: tasks of whole buckets, all leased until {@code leaseExpiry} (server ms). */
public record BucketClaim(long leaseExpiry, List<BucketTask> tasks) {
}
