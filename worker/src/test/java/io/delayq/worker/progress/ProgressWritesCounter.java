package io.delayq.worker.progress;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the writes Redis itself saw on one progress hash, from its keyspace notifications: independent of the
 * worker's own bookkeeping.
 */
final class ProgressWritesCounter implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisPubSubConnection<String, String> connection;
    private final AtomicInteger written = new AtomicInteger();

    ProgressWritesCounter(String redisUrl, String progressKey) {
        client = RedisClient.create(redisUrl);
        try (var admin = client.connect()) {
            admin.sync().configSet("notify-keyspace-events", "Kh");
        }
        connection = client.connectPubSub();
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                if (message.equals("hset")) {
                    written.incrementAndGet();
                }
            }
        });
        connection.sync().subscribe("__keyspace@0__:" + progressKey);
    }

    int written() {
        return written.get();
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
