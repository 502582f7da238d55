package io.delayq.cli;

import io.delayq.client.DelayQueueClient;
import io.delayq.queue.ShardCountMismatchException;
import io.delayq.redis.RedisCredentialsException;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * An open connection to one queue: the Redis endpoint and the core client on it. Opening finds the
 * shard count (option, environment, or the queue's meta hash) and refuses a count that differs
 * from Redis, before anything is written.
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
            Map<String, String> meta = Replies.await(redis.commands().hgetall(ShardKeys.meta(queue)), settings.timeout());
            String recorded = meta.get("shards");
            if (recorded == null) {
                if (!mayCreate) {
                    throw CliException.notFound("queue: no queue '" + queue + "' in Redis at " + RedisEndpoint.redact(url)
                            + " (no hash " + ShardKeys.meta(queue) + "); check --queue, or start a worker or enqueue a task first");
                }
                if (shards == null) {
                    throw CliException.usage("shards: queue '" + queue + "' does not exist in Redis yet (no hash " + ShardKeys.meta(queue)
                            + "); pass --shards N (or set DELAYQ_SHARDS) to create it");
                }
            } else {
                long inRedis = parseShards(queue, recorded);
                if (shards != null && shards != inRedis) {
                    throw new ShardCountMismatchException(queue, shards, inRedis);
                }
                shards = (int) inRedis;
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

    private static long parseShards(String queue, String recorded) {
        try {
            return Long.parseLong(recorded.trim());
        } catch (NumberFormatException e) {
            throw new CliException(ExitCodes.REDIS, "shards: " + ShardKeys.meta(queue) + " holds shards='" + recorded
                    + "', not a number; the queue's meta hash is damaged");
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
