package io.delayq.operator.sharding;

import io.delayq.shard.ShardRange;

/**
 * The shard range one worker Deployment owns and the queue's shard count its workers are told
 * ({@code DELAYQ_SHARDS}). They differ from the spec only while a queue grows: the Deployments of the old
 * layout keep the old count, unchanged, until the migration ends.
 *
 * @param retiring true for a range of the old layout only, deleted when the migration ends
 */
public record WorkerRange(ShardRange range, int shards, boolean retiring) {
}
