package io.delayq.outbox.relay;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.RecordedLayout;
import io.delayq.redis.RedisEndpoint;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One producer client per queue named by the rows, on one shared Redis connection; the shard count is the
 * one the queue's meta hash records (or the configured one for a queue no one created yet).
 */
final class QueueClients implements AutoCloseable {
    private final RedisEndpoint redis;
    private final RelayConfig config;
    private final Map<String, DelayQueueClient> clients = new HashMap<>();

    QueueClients(RedisEndpoint redis, RelayConfig config) {
        this.redis = redis;
        this.config = config;
    }

    DelayQueueClient of(String queue) {
        DelayQueueClient client = clients.get(queue);
        if (client == null) {
            client = open(queue);
            clients.put(queue, client);
        }
        return client;
    }

    private DelayQueueClient open(String queue) {
        Optional<RecordedLayout> recorded = RecordedLayout.read(redis, queue, config.redisTimeout());
        Integer shards = recorded.map(RecordedLayout::shards).orElse(config.newQueueShards().get(queue));
        if (shards == null) {
            throw new UnknownQueueException(queue);
        }
        return DelayQueueClient.builder().redis(redis).queue(queue).shards(shards)
                .maxPayloadBytes(config.maxPayloadBytes()).timeout(config.redisTimeout()).build();
    }

    /** Forgets the clients (after a Redis failure a queue may have been resharded or recreated meanwhile). */
    void reset() {
        clients.clear();
    }

    @Override
    public void close() {
        clients.clear();
    }

    /** Rows of a queue that does not exist in Redis wait: a worker creating it (or a configured shard count) lets them through. */
    static final class UnknownQueueException extends RuntimeException {
        UnknownQueueException(String queue) {
            super("queue '" + queue + "' does not exist in Redis (no meta hash): its rows wait until a worker creates it, "
                    + "or give the relay a shard count for new queues");
        }
    }
}
