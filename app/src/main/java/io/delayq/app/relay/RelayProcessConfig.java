package io.delayq.app.relay;

import io.delayq.InvalidInputException;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.outbox.relay.OutboxSettings;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.queue.QueueName;
import io.delayq.settings.ConfigException;
import io.delayq.settings.Settings;
import io.delayq.worker.config.WorkerConfig;

import java.util.Map;
import java.util.Optional;

import static io.delayq.settings.WorkerSettings.HTTP_PORT;
import static io.delayq.settings.WorkerSettings.OUTBOX_URL;
import static io.delayq.settings.WorkerSettings.QUEUE;
import static io.delayq.settings.WorkerSettings.SHARDS;

/**
 * What {@code delayq outbox-relay} reads from the worker's {@code DELAYQ_*} variables: the Redis (URL, credentials,
 * TLS CA), the queue and its shard count (a queue the rows name before any worker created it gets them; the backstop
 * enqueues into it), the port of /metrics, /healthz and /readyz, and the {@code DELAYQ_OUTBOX_*} group, whose URL is
 * required here. The delivery variables of a worker are not read: a relay process fires nothing.
 */
public record RelayProcessConfig(String queue, int shards, int httpPort, RelayConfig relay, Optional<BackstopQuery> backstop) {

    /** @throws ConfigException naming the variable */
    public static RelayProcessConfig fromEnv(Map<String, String> env) {
        Settings s = Settings.from(env);
        if (!s.has(OUTBOX_URL)) {
            throw new ConfigException(OUTBOX_URL.name(), "is required: the relay copies the outbox of that database "
                    + "(jdbc:postgresql://host:port/database) into Redis");
        }
        String redisUrl = WorkerConfig.redisUrl(s);
        String queue;
        try {
            queue = QueueName.require(s.required(QUEUE.name(), "the queue the relay's rows go to"));
        } catch (InvalidInputException e) {
            throw new ConfigException(QUEUE.name(), e.getMessage().substring(e.field().length() + 2));
        }
        int shards = s.getInt(SHARDS);
        if (shards == 0) {
            throw new ConfigException(SHARDS.name(), "is required (the queue's shard count, 1 to " + SHARDS.max() + ")");
        }
        RelayConfig relay = OutboxSettings.fromEnv(env, redisUrl, queue, shards).orElseThrow();
        return new RelayProcessConfig(queue, shards, s.getInt(HTTP_PORT), relay, OutboxSettings.backstop(env, queue));
    }
}
