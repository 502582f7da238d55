package io.delayq.outbox.relay;

import io.delayq.InvalidInputException;
import io.delayq.client.DelayQueueClient;
import io.delayq.queue.QueueName;
import io.delayq.shard.Sharding;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Where the relay reads (a PostgreSQL JDBC URL and credentials) and writes (a Redis URL), and how:
 * rows per claimed batch, the polling fallback behind LISTEN/NOTIFY, the pause after a failed round.
 * {@code redisTlsCa} is the PEM CA bundle a {@code rediss://} Redis is trusted by (the worker's
 * {@code DELAYQ_REDIS_TLS_CA}), or null for the process-wide trust.
 * {@link Builder#build()} rejects a bad value naming the setting.
 */
public record RelayConfig(String jdbcUrl, Properties jdbcProperties, String redisUrl, int batchSize, Duration pollInterval,
                          Duration retryDelay, Map<String, Integer> newQueueShards, int maxPayloadBytes, Duration redisTimeout,
                          Path redisTlsCa) {
    public static final int DEFAULT_BATCH_SIZE = 500;
    public static final int MAX_BATCH_SIZE = 10_000;
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(1);

    public RelayConfig {
        jdbcProperties = (Properties) jdbcProperties.clone();
        newQueueShards = Map.copyOf(newQueueShards);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private String jdbcUrl;
        private final Properties jdbcProperties = new Properties();
        private String redisUrl;
        private int batchSize = DEFAULT_BATCH_SIZE;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Duration retryDelay = DEFAULT_RETRY_DELAY;
        private final Map<String, Integer> newQueueShards = new HashMap<>();
        private int maxPayloadBytes = DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES;
        private Duration redisTimeout = Duration.ofSeconds(5);
        private Path redisTlsCa;

        /** {@code jdbc:postgresql://host:port/database}. */
        public Builder jdbcUrl(String url) {
            this.jdbcUrl = url;
            return this;
        }

        public Builder user(String user) {
            if (user != null) {
                jdbcProperties.setProperty("user", user);
            }
            return this;
        }

        public Builder password(String password) {
            if (password != null) {
                jdbcProperties.setProperty("password", password);
            }
            return this;
        }

        public Builder redisUrl(String url) {
            this.redisUrl = url;
            return this;
        }

        /** The CA bundle to trust for a {@code rediss://} URL; null: the process-wide trust. */
        public Builder redisTlsCa(Path caFile) {
            this.redisTlsCa = caFile;
            return this;
        }

        public Builder batchSize(int rows) {
            this.batchSize = rows;
            return this;
        }

        public Builder pollInterval(Duration interval) {
            this.pollInterval = interval;
            return this;
        }

        public Builder retryDelay(Duration delay) {
            this.retryDelay = delay;
            return this;
        }

        /** The shard count to create {@code queue} with when a row names it before any worker or producer created it. */
        public Builder newQueueShards(String queue, int shards) {
            QueueName.require(queue);
            Sharding.requireShardCount(shards);
            newQueueShards.put(queue, shards);
            return this;
        }

        public Builder maxPayloadBytes(int bytes) {
            this.maxPayloadBytes = bytes;
            return this;
        }

        public Builder redisTimeout(Duration timeout) {
            this.redisTimeout = timeout;
            return this;
        }

        public RelayConfig build() {
            if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
                throw new InvalidInputException("jdbcUrl", "must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), got "
                        + (jdbcUrl == null ? "nothing" : "'" + jdbcUrl + "'"));
            }
            if (redisUrl == null || !(redisUrl.startsWith("redis://") || redisUrl.startsWith("rediss://"))) {
                throw new InvalidInputException("redisUrl", "must be a redis:// or rediss:// URL, got "
                        + (redisUrl == null ? "nothing" : "'" + redisUrl + "'"));
            }
            if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
                throw new InvalidInputException("batchSize", "must be 1 to " + MAX_BATCH_SIZE + " rows, got " + batchSize);
            }
            requirePositive("pollInterval", pollInterval);
            requirePositive("retryDelay", retryDelay);
            requirePositive("redisTimeout", redisTimeout);
            if (maxPayloadBytes < 1) {
                throw new InvalidInputException("maxPayloadBytes", "must be at least 1, got " + maxPayloadBytes);
            }
            return new RelayConfig(jdbcUrl, jdbcProperties, redisUrl, batchSize, pollInterval, retryDelay, newQueueShards,
                    maxPayloadBytes, redisTimeout, redisTlsCa);
        }

        private static void requirePositive(String field, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new InvalidInputException(field, "must be a positive duration, got " + d);
            }
        }
    }
}
