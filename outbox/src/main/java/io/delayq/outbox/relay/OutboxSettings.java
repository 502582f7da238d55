package io.delayq.outbox.relay;

import io.delayq.InvalidInputException;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.settings.ConfigException;
import io.delayq.settings.Setting;
import io.delayq.settings.Settings;
import io.delayq.settings.WorkerSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code DELAYQ_OUTBOX_*} variables with which a worker process also runs a relay: set
 * {@code DELAYQ_OUTBOX_URL} and the relay copies the outbox of that database into the worker's Redis. The relay
 * writes to the worker's Redis ({@code DELAYQ_REDIS_URL} with its credentials, trusting {@code DELAYQ_REDIS_TLS_CA}) and may create the worker's queue
 * with the worker's shard count. Errors name the variable, as the worker's own settings do.
 */
public final class OutboxSettings {
    // The variables are part of the worker contract (WorkerSettings), which the operator writes by.
    /** {@code jdbc:postgresql://host:port/database}; unset: no relay. */
    public static final Setting.Text URL = WorkerSettings.OUTBOX_URL;
    public static final Setting.Text USER = WorkerSettings.OUTBOX_USER;
    public static final Setting.Text PASSWORD = WorkerSettings.OUTBOX_PASSWORD;
    public static final Setting.Whole BATCH_SIZE = WorkerSettings.OUTBOX_BATCH_SIZE;
    public static final Setting.Span POLL_INTERVAL = WorkerSettings.OUTBOX_POLL_INTERVAL;
    public static final Setting.Span RETRY_DELAY = WorkerSettings.OUTBOX_RETRY_DELAY;

    /** The backstop query of the worker's queue (columns task_id, due_at and maybe payload); unset: no backstop. */
    public static final Setting.Text BACKSTOP_QUERY = WorkerSettings.OUTBOX_BACKSTOP_QUERY;
    public static final Setting.Span BACKSTOP_INTERVAL = WorkerSettings.OUTBOX_BACKSTOP_INTERVAL;

    /** Every variable of the group, in the order of the documentation. */
    public static final List<Setting> ALL = WorkerSettings.OUTBOX;

    private OutboxSettings() {
    }

    /** The worker queue's backstop, or empty when {@code DELAYQ_OUTBOX_BACKSTOP_QUERY} is unset. */
    public static Optional<BackstopQuery> backstop(Map<String, String> env, String queue) {
        Settings s = Settings.from(env);
        if (!s.has(BACKSTOP_QUERY)) {
            return Optional.empty();
        }
        return Optional.of(new BackstopQuery(queue, s.string(BACKSTOP_QUERY), s.get(BACKSTOP_INTERVAL)));
    }

    /**
     * The relay a worker process runs, or empty when {@code DELAYQ_OUTBOX_URL} is unset.
     *
     * @param redisUrl the worker's Redis URL (with its credentials)
     * @param queue    the worker's queue, created with {@code shards} if a row names it before it exists
     * @throws ConfigException naming the variable
     */
    public static Optional<RelayConfig> fromEnv(Map<String, String> env, String redisUrl, String queue, int shards) {
        Settings s = Settings.from(env);
        if (!s.has(URL)) {
            for (Setting other : List.of(USER, PASSWORD, BACKSTOP_QUERY)) {
                if (s.has(other)) {
                    throw new ConfigException(URL.name(), "is required when " + other.name() + " is set");
                }
            }
            return Optional.empty();
        }
        String url = s.string(URL);
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new ConfigException(URL.name(), "must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), got '"
                    + url + "'");
        }
        try {
            return Optional.of(RelayConfig.builder().jdbcUrl(url).user(s.string(USER)).password(s.string(PASSWORD))
                    .redisUrl(redisUrl).redisTlsCa(s.has(WorkerSettings.REDIS_TLS_CA) ? Path.of(s.string(WorkerSettings.REDIS_TLS_CA)) : null)
                    .batchSize(s.getInt(BATCH_SIZE)).pollInterval(s.get(POLL_INTERVAL))
                    .retryDelay(s.get(RETRY_DELAY)).newQueueShards(queue, shards).build());
        } catch (ConfigException e) {
            throw e;
        } catch (InvalidInputException e) {
            // what RelayConfig checks beyond the variables' own bounds
            throw new ConfigException("DELAYQ_OUTBOX (" + e.field() + ")", e.getMessage());
        }
    }
}
