package io.delayq.app.relay;

import io.delayq.client.DelayQueueClient;
import io.delayq.outbox.backstop.Backstop;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.redis.RedisEndpoint;
import io.micrometer.core.instrument.MeterRegistry;

import java.sql.DriverManager;

/**
 * The backstop (DELAYQ_OUTBOX_BACKSTOP_QUERY) of a worker process or a relay process, with the producer client it
 * enqueues through: on the relay's database and the relay's Redis (its credentials and TLS CA).
 */
public final class OutboxBackstop implements AutoCloseable {
    private final RedisEndpoint redis;
    private final DelayQueueClient client;
    private final Backstop backstop;

    private OutboxBackstop(RedisEndpoint redis, DelayQueueClient client, Backstop backstop) {
        this.redis = redis;
        this.client = client;
        this.backstop = backstop;
    }

    public static OutboxBackstop start(BackstopQuery query, RelayConfig relay, int shards, MeterRegistry registry) {
        RedisEndpoint redis = RedisEndpoint.connect(relay.redisUrl(), null, relay.redisTimeout(), relay.redisTlsCa());
        try {
            DelayQueueClient client = DelayQueueClient.builder().redis(redis).queue(query.queue()).shards(shards).build();
            Backstop backstop = new Backstop(query, () -> DriverManager.getConnection(relay.jdbcUrl(), relay.jdbcProperties()),
                    client, registry).start();
            return new OutboxBackstop(redis, client, backstop);
        } catch (RuntimeException e) {
            redis.close();
            throw e;
        }
    }

    @Override
    public void close() {
        backstop.close();
        client.close();
        redis.close();
    }
}
