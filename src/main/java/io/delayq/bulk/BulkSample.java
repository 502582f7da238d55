package io.delayq.bulk;

/** One task a bulk filter matched: shown in a preview before anything changes. */
public record BulkSample(String id, int shard, long dueAt) {
}
