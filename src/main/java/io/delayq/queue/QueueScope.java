package io.delayq.queue;

import io.delayq.bucket.BucketQueue;
import io.delayq.redis.RedisEndpoint;
import io.delayq.script.ScriptRunner;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One queue on one Redis connection: its name, the script runner (one per connection, so a script is loaded
 * once) and the key names of its shards. Every script class of the queue (the hot path, admin, stats, browse,
 * pause, resharding) speaks through one scope.
 */
public final class QueueScope {
    private final String queue;
    private final ScriptRunner scripts;
    private final RedisClusterAsyncCommands<String, String> commands;
    private final AtomicReferenceArray<ShardKeys> keys = new AtomicReferenceArray<>(Sharding.MAX_SHARDS);
    private volatile int protocol = QueueProtocol.PROTOCOL_VERSION;
    private volatile BucketQueue buckets;

    public QueueScope(RedisEndpoint redis, String queue) {
        this.queue = QueueName.require(queue);
        this.commands = redis.commands();
        this.scripts = new ScriptRunner(commands);
    }

    public String queue() {
        return queue;
    }

    public ScriptRunner scripts() {
        return scripts;
    }

    /** For the few plain reads and writes outside the scripts (the pause record, layout stamps, once-mode entries). */
    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    public ShardKeys keys(int shard) {
        ShardKeys k = keys.get(shard);
        if (k == null) {
            k = new ShardKeys(queue, shard);
            keys.set(shard, k);
        }
        return k;
    }

    /** The protocol the queue's meta records, as last verified on this scope (2 until then). */
    public int protocol() {
        return protocol;
    }

    void recordProtocol(int recorded) {
        if (recorded == QueueProtocol.BUCKETED && buckets == null) {
            buckets = new BucketQueue(this);
        } else if (recorded != QueueProtocol.BUCKETED) {
            buckets = null;
        }
        protocol = recorded;
    }

    /**
     * The queue's protocol-3 calls, or null while the queue is known as protocol 2 (also before its meta was read):
     * the one place that says a queue is bucketed, for every class that routes a call.
     */
    public BucketQueue buckets() {
        return buckets;
    }

    /** The queue's meta hash (shard count, protocol version, layout, pause, migration). */
    public String meta() {
        return ShardKeys.meta(queue);
    }
}
