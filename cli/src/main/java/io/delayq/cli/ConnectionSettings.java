package io.delayq.cli;

import io.delayq.queue.QueueName;
import io.delayq.shard.Sharding;

import java.time.Duration;

/** Where to connect, after options and environment were combined; any field but timeout may be missing. */
public record ConnectionSettings(String redisUrl, String queue, Integer shards, Duration timeout) {

    public String requireRedisUrl() {
        if (redisUrl == null) {
            throw CliException.usage("redis: no Redis URL; pass --redis redis://host:6379 or set DELAYQ_REDIS_URL or REDIS_URL");
        }
        return redisUrl;
    }

    public String requireQueue() {
        if (queue == null) {
            throw CliException.usage("queue: no queue name; pass --queue NAME or set DELAYQ_QUEUE");
        }
        return QueueName.require(queue);
    }

    /** The shard count given on the command line or in the environment, checked; null when none was. */
    public Integer checkedShards() {
        return shards == null ? null : Sharding.requireShardCount(shards);
    }
}
