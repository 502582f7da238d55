package io.delayq.outbox.relay;

import io.delayq.settings.ConfigException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The DELAYQ_OUTBOX_* group: no URL, no relay; a bad value is an error naming its variable. */
class OutboxSettingsTest {
    private static final String REDIS = "redis://127.0.0.1:6379";

    @Test
    void withoutAUrlTheWorkerRunsNoRelay() {
        assertThat(OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", " "), REDIS, "orders", 4)).isEmpty();
        assertThatThrownBy(() -> OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_USER", "shop"), REDIS, "orders", 4))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_URL: is required when DELAYQ_OUTBOX_USER");
        assertThat(OutboxSettings.backstop(Map.of(), "orders")).isEmpty();
    }

    @Test
    void theBackstopQueryRunsForTheWorkersQueue() {
        var query = OutboxSettings.backstop(Map.of("DELAYQ_OUTBOX_BACKSTOP_QUERY", "SELECT id AS task_id, due AS due_at FROM t",
                "DELAYQ_OUTBOX_BACKSTOP_INTERVAL", "10m"), "orders").orElseThrow();
        assertThat(query.queue()).isEqualTo("orders");
        assertThat(query.interval()).isEqualTo(Duration.ofMinutes(10));
        assertThatThrownBy(() -> OutboxSettings.backstop(Map.of("DELAYQ_OUTBOX_BACKSTOP_QUERY", "SELECT 1",
                "DELAYQ_OUTBOX_BACKSTOP_INTERVAL", "10ms"), "orders"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_BACKSTOP_INTERVAL:");
        assertThatThrownBy(() -> OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_BACKSTOP_QUERY", "SELECT 1"), REDIS, "orders", 4))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_URL: is required when DELAYQ_OUTBOX_BACKSTOP_QUERY");
    }

    @Test
    void theVariablesMakeTheRelayConfiguration() {
        RelayConfig c = OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db:5432/shop", "DELAYQ_OUTBOX_USER", "shop",
                "DELAYQ_OUTBOX_PASSWORD", "s3cret", "DELAYQ_OUTBOX_BATCH_SIZE", "200", "DELAYQ_OUTBOX_POLL_INTERVAL", "250ms",
                "DELAYQ_OUTBOX_RETRY_DELAY", "2s"), REDIS, "orders", 4).orElseThrow();
        assertThat(c.jdbcUrl()).isEqualTo("jdbc:postgresql://db:5432/shop");
        assertThat(c.jdbcProperties()).containsEntry("user", "shop").containsEntry("password", "s3cret");
        assertThat(c.redisUrl()).isEqualTo(REDIS);
        assertThat(c.batchSize()).isEqualTo(200);
        assertThat(c.pollInterval()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.retryDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.newQueueShards()).containsEntry("orders", 4);
    }

    @Test
    void theRelayTrustsTheWorkersRedisCa() {
        RelayConfig c = OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db:5432/shop",
                "DELAYQ_REDIS_TLS_CA", "/etc/delayq/redis-ca/ca.crt"), "rediss://redis:6380", "orders", 4).orElseThrow();
        assertThat(c.redisTlsCa()).isEqualTo(java.nio.file.Path.of("/etc/delayq/redis-ca/ca.crt"));
        assertThat(OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db:5432/shop"), REDIS, "orders", 4)
                .orElseThrow().redisTlsCa()).isNull();
    }

    @Test
    void aBadValueNamesItsVariable() {
        assertThatThrownBy(() -> OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "postgres://db/shop"), REDIS, "orders", 4))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_URL: must be a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db/shop",
                "DELAYQ_OUTBOX_BATCH_SIZE", "0"), REDIS, "orders", 4))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_BATCH_SIZE:");
        assertThatThrownBy(() -> OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db/shop",
                "DELAYQ_OUTBOX_POLL_INTERVAL", "soon"), REDIS, "orders", 4))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("DELAYQ_OUTBOX_POLL_INTERVAL:");
    }

    @Test
    void theContractsDefaultsAndBoundsAreTheRelaysOwn() {
        // the variables live in the worker contract (core's WorkerSettings), the defaults in RelayConfig: one value
        assertThat(OutboxSettings.BATCH_SIZE.fallback()).isEqualTo(RelayConfig.DEFAULT_BATCH_SIZE);
        assertThat(OutboxSettings.BATCH_SIZE.max()).isEqualTo(RelayConfig.MAX_BATCH_SIZE);
        assertThat(OutboxSettings.POLL_INTERVAL.fallback()).isEqualTo(RelayConfig.DEFAULT_POLL_INTERVAL);
        assertThat(OutboxSettings.RETRY_DELAY.fallback()).isEqualTo(RelayConfig.DEFAULT_RETRY_DELAY);
        RelayConfig defaults = OutboxSettings.fromEnv(Map.of("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db/shop"), REDIS, "orders", 4).orElseThrow();
        assertThat(defaults.batchSize()).isEqualTo(RelayConfig.DEFAULT_BATCH_SIZE);
        assertThat(defaults.pollInterval()).isEqualTo(RelayConfig.DEFAULT_POLL_INTERVAL);
    }
}
