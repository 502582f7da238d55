package io.delayq.console;

import io.delayq.client.DelayQueueClient;
import io.delayq.console.sample.SampleQueue;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A console on a real Redis holding real tasks: the sample queue ({@value SampleQueue#QUEUE}, 8 shards:
 * 300 scheduled, 40 due, 2 in flight, 24 dead) and a small second queue {@code coupons}.
 */
public final class ConsoleFixture implements AutoCloseable {
    public static final String TOKEN = "test-token-0123456789";
    static final int SCHEDULED = 300;
    /** A short history (sampled every second), so that a test's plot has a visible line. */
    public static final Duration HISTORY = Duration.ofSeconds(30);

    final Console console;
    final RedisEndpoint raw;
    final DelayQueueClient orders;

    private ConsoleFixture(Console console, RedisEndpoint raw, DelayQueueClient orders) {
        this.console = console;
        this.raw = raw;
        this.orders = orders;
    }

    public static ConsoleFixture start(RedisServerExtension redis, String token) throws Exception {
        return start(redis, redis.url(), token);
    }

    public static ConsoleFixture start(RedisServerExtension redis, String consoleUrl, String token) throws Exception {
        RedisEndpoint raw = RedisEndpoint.connect(redis.url());
        SampleQueue.fill(raw, SCHEDULED);
        try (DelayQueueClient coupons = DelayQueueClient.builder().redis(raw).queue("coupons").shards(2).build()) {
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                specs.add(TaskSpec.of("coupon-" + i).after(Duration.ofHours(2 + i)));
            }
            coupons.enqueueAll(specs);
        }
        Console console = Console.start(new ConsoleSettings(consoleUrl, "127.0.0.1", 0, token, List.of(),
                Duration.ofSeconds(1), HISTORY));
        DelayQueueClient orders = DelayQueueClient.builder().redis(raw).queue(SampleQueue.QUEUE).shards(SampleQueue.SHARDS).build();
        return new ConsoleFixture(console, raw, orders);
    }

    public String url() {
        return "http://127.0.0.1:" + console.port() + "/";
    }

    /** A due time in Redis, read directly: the due sets of the id's shard. */
    public Double dueScore(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        for (int level = 0; level < 3; level++) {
            Double s = Replies.await(raw.commands().zscore(k.due(level), id), Duration.ofSeconds(5));
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    public boolean isDead(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        return Replies.await(raw.commands().zscore(k.dead(), id), Duration.ofSeconds(5)) != null;
    }

    /** A dead letter put straight into its shard's dead set, as one dying now would be. */
    public void addDeadLetter(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        Replies.await(raw.commands().zadd(k.dead(), (double) serverNow(), id), Duration.ofSeconds(5));
    }

    public boolean hasRecord(String id) {
        ShardKeys k = orders.protocol().keys(orders.protocol().shardOf(id));
        return Replies.await(raw.commands().hexists(k.record(id), id), Duration.ofSeconds(5));
    }

    public long serverNow() {
        List<String> t = Replies.await(raw.commands().time(), Duration.ofSeconds(5));
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    public long zcard(String key) {
        return Replies.await(raw.commands().zcard(key), Duration.ofSeconds(5));
    }

    /** Tasks of a shard's due sets that are due at {@code now}. */
    public long zcount(ShardKeys k, long now) {
        long n = 0;
        for (int level = 0; level < 3; level++) {
            n += Replies.await(raw.commands().zcount(k.due(level), io.lettuce.core.Range.create(Double.NEGATIVE_INFINITY, (double) now)),
                    Duration.ofSeconds(5));
        }
        return n;
    }

    public DelayQueueClient orders() {
        return orders;
    }

    public int historySamples(String queue) {
        return console.history().of(queue).size();
    }

    public String lastError(String id) {
        return Replies.await(raw.commands().hget(orders.protocol().keys(orders.protocol().shardOf(id)).errors(), id), Duration.ofSeconds(5));
    }

    public String attempts(String id) {
        return Replies.await(raw.commands().hget(orders.protocol().keys(orders.protocol().shardOf(id)).attempts(), id), Duration.ofSeconds(5));
    }

    public boolean exists(String key) {
        return Replies.await(raw.commands().exists(key), Duration.ofSeconds(5)) == 1;
    }

    public String metaField(String field) {
        return Replies.await(raw.commands().hget(ShardKeys.meta(SampleQueue.QUEUE), field), Duration.ofSeconds(5));
    }

    @Override
    public void close() {
        console.close();
        orders.close();
        raw.close();
    }
}
