package io.delayq.bucket;

/**
 * A task a protocol-3 claim handed out: its in-flight bucket name ({@code flight}) is the fence its ack, retry and
 * lease extension name; {@code attempt} is the bucket's, shared by every task claimed with it.
 */
public record BucketTask(int shard, String id, long dueAt, int attempt, String flight, String record) {
}
