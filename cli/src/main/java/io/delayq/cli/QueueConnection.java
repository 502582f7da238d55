package io.delayq.cli;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.DamagedMetaException;
import io.delayq.layout.RecordedLayout;
import io.delayq.redis.RedisCredentialsException;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * An open connection to one queue: the Redis endpoint and the core client on it. Opening reads the
 * shard count from the queue's meta hash (the option or environment only creates a queue) and refuses
 * a count given that differs from Redis, before anything is written.
 */
public final class QueueConnection implements AutoCloseable {
    private final String url;
    private final RedisEndpoint redis;
    private final DelayQueueClient client;
    private final Duration timeout;

    private QueueConnection(String url, RedisEndpoint redis, DelayQueueClient client, Duration timeout) {
        this.url = url;
        this.redis = redis;
        this.client = client;
        this.timeout = timeout;
    }

    /**
     * @param mayCreate whether the command may create the queue (enqueue, backfill): then a missing
     *                  queue is created with the given shard count; read and modify commands answer
     *                  "not found" instead, so a typo in --queue never leaves a stray queue behind
     */
    public static QueueConnection open(ConnectionSettings settings, boolean mayCreate) {
        String url = settings.requireRedisUrl();
        String queue = settings.requireQueue();
        Integer shards = settings.checkedShards();
        RedisEndpoint redis = connect(url, settings.timeout());
        try {
            Optional<RecordedLayout> recorded = recorded(redis, queue, settings.timeout());
            if (recorded.isEmpty()) {
                if (!mayCreate) {
                    throw CliException.notFound("queue: no queue '" + queue + "' in Redis at " + RedisEndpoint.redact(url)
                            + " (no hash " + ShardKeys.meta(queue) + "); check --queue, or start a worker or enqueue a task first");
                }
                if (shards == null) {
                    throw CliException.usage("shards: queue '" + queue + "' does not exist in Redis yet (no hash " + ShardKeys.meta(queue)
                            + "); pass --shards N (or set DELAYQ_SHARDS) to create it");
                }
            } else {
                int inRedis = recorded.get().shards();
                if (shards != null && shards != inRedis) {
                    throw shardCountDiffers(queue, shards, inRedis);
                }
                shards = inRedis;
            }
            DelayQueueClient client = DelayQueueClient.builder().redis(redis).queue(queue).shards(shards)
                    .timeout(settings.timeout()).build();
            return new QueueConnection(url, redis, client, settings.timeout());
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    /** What to set when Redis refuses the credentials: the CLI takes the URL as an option too. */
    static final RedisCredentialsException.Fix CREDENTIALS_FIX = RedisCredentialsException.Fix.forUrlIn("--redis or DELAYQ_REDIS_URL");

    /**
     * Connects, turning Lettuce's connection failure into one line that names the URL (without its password); a
     * missing or wrong password fails with a {@link RedisCredentialsException} naming what to set.
     */
    public static RedisEndpoint connect(String url, Duration timeout) {
        try {
            return RedisEndpoint.connect(url, null, timeout, null, CREDENTIALS_FIX);
        } catch (io.lettuce.core.RedisConnectionException e) {
            throw new CliException(ExitCodes.REDIS, "redis: cannot connect to " + RedisEndpoint.redact(url) + " ("
                    + Errors.rootMessage(e) + ")", e);
        }
    }

    /**
     * The CLI needs no shard count for a queue that exists (it reads the layout from Redis), so one that differs
     * from Redis is a stale setting: refused, saying what to do instead, as the clients' ShardCountMismatchException does.
     */
    private static CliException shardCountDiffers(String queue, int configured, int inRedis) {
        return new CliException(ExitCodes.REDIS, "shards: queue '" + queue + "' has " + inRedis + " shards in Redis ("
                + ShardKeys.meta(queue) + "), but --shards (or DELAYQ_SHARDS) says " + configured + "; leave it out: the CLI "
                + "reads the queue's layout from Redis (--shards only sets the count of a new queue), and the count changes "
                + "only through a reshard (delayq reshard " + queue + " --to N)");
    }

    private static Optional<RecordedLayout> recorded(RedisEndpoint redis, String queue, Duration timeout) {
        try {
            return RecordedLayout.read(redis, queue, timeout);
        } catch (DamagedMetaException e) {
            throw new CliException(ExitCodes.REDIS, "shards: " + e.getMessage());
        }
    }

    public DelayQueueClient client() {
        return client;
    }

    public RedisEndpoint redis() {
        return redis;
    }

    public String queue() {
        return client.async().queue();
    }

    public int shards() {
        return client.async().shards();
    }

    /** The Redis URL without its password. */
    public String redactedUrl() {
        return RedisEndpoint.redact(url);
    }

    /** How long each Redis answer is waited for (--timeout). */
    public Duration timeout() {
        return timeout;
    }

    public <T> T await(CompletionStage<T> stage) {
        return Replies.await(stage, timeout);
    }

    /** The Redis server clock in epoch ms: every age the CLI prints is measured against it, as the scripts do. */
    public long serverNow() {
        java.util.List<String> t = await(redis.commands().time());
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    @Override
    public void close() {
        client.close();
        redis.close();
    }
}
