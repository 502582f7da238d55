package io.delayq.app.relay;

import io.delayq.settings.ConfigException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** `delayq outbox-relay` reads the worker's variables: the Redis with its credentials and CA, the queue, the outbox group. */
class RelayProcessConfigTest {
    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", "rediss://redis:6380", "DELAYQ_QUEUE", "orders",
                "DELAYQ_SHARDS", "8", "DELAYQ_OUTBOX_URL", "jdbc:postgresql://db:5432/shop"));
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] == null) {
                env.remove(pairs[i]);
            } else {
                env.put(pairs[i], pairs[i + 1]);
            }
        }
        return env;
    }

    @Test
    void theRelayWritesToTheWorkersRedisWithItsCredentialsAndCa() {
        RelayProcessConfig c = RelayProcessConfig.fromEnv(env("DELAYQ_REDIS_USERNAME", "relay", "DELAYQ_REDIS_PASSWORD", "p@ss",
                "DELAYQ_REDIS_TLS_CA", "/etc/delayq/redis-ca/ca.crt", "DELAYQ_OUTBOX_USER", "shop", "DELAYQ_OUTBOX_PASSWORD", "pg",
                "DELAYQ_OUTBOX_POLL_INTERVAL", "250ms", "DELAYQ_HTTP_PORT", "9090"));
        assertThat(c.relay().redisUrl()).isEqualTo("rediss://relay:p%40ss@redis:6380");
        assertThat(c.relay().redisTlsCa()).isEqualTo(Path.of("/etc/delayq/redis-ca/ca.crt"));
        assertThat(c.relay().jdbcProperties()).containsEntry("user", "shop").containsEntry("password", "pg");
        assertThat(c.relay().pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.relay().newQueueShards()).containsEntry("orders", 8);
        assertThat(c.queue()).isEqualTo("orders");
        assertThat(c.shards()).isEqualTo(8);
        assertThat(c.httpPort()).isEqualTo(9090);
        assertThat(c.backstop()).isEmpty();
    }

    @Test
    void theBackstopRunsForTheQueue() {
        RelayProcessConfig c = RelayProcessConfig.fromEnv(env("DELAYQ_OUTBOX_BACKSTOP_QUERY", "SELECT id AS task_id, due AS due_at FROM orders"));
        assertThat(c.backstop()).hasValueSatisfying(q -> assertThat(q.queue()).isEqualTo("orders"));
        assertThat(c.httpPort()).isEqualTo(8080);
    }

    @Test
    void eachMissingOrBadVariableIsNamed() {
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_OUTBOX_URL", null)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_URL: is required");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_REDIS_URL", null)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_REDIS_URL: is required");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_REDIS_URL", "http://redis")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_REDIS_URL: must start with");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_REDIS_USERNAME", "relay")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_REDIS_USERNAME: needs DELAYQ_REDIS_PASSWORD");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_QUEUE", null)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_QUEUE: is required");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_QUEUE", "no spaces")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_QUEUE:");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_SHARDS", null)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_SHARDS: is required");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_OUTBOX_URL", "postgres://db/shop")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_URL: must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_OUTBOX_BATCH_SIZE", "0")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_BATCH_SIZE:");
        assertThatThrownBy(() -> RelayProcessConfig.fromEnv(env("DELAYQ_HTTP_PORT", "http")))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_HTTP_PORT:");
    }
}
