package io.delayq.cli;

import io.delayq.cli.text.DurationConverter;
import io.delayq.redis.RedisUrls;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.time.Duration;

import static io.delayq.settings.WorkerSettings.QUEUE;
import static io.delayq.settings.WorkerSettings.REDIS_PASSWORD;
import static io.delayq.settings.WorkerSettings.REDIS_URL;
import static io.delayq.settings.WorkerSettings.REDIS_URL_FALLBACK;
import static io.delayq.settings.WorkerSettings.REDIS_USERNAME;
import static io.delayq.settings.WorkerSettings.SHARDS;

/**
 * {@code --redis}, {@code --queue}, {@code --shards}, {@code --timeout}: accepted on the root
 * command ({@code delayq --queue orders stats}) and on every command ({@code delayq stats --queue orders}).
 * The nearest one given wins, then the environment.
 */
public class ConnectionOptions {
    /** The name the mixin gets in every command, so that commands can find their ancestors' values. */
    public static final String MIXIN_NAME = "connection";

    @Option(names = "--redis", paramLabel = "URL",
            description = "Redis URL: redis://[user:password@]host:port[/db], rediss://… (TLS), "
                    + "redis-sentinel://host:port[,host:port]/db#master, redis-cluster://host:port[,host:port]. "
                    + "Default: $DELAYQ_REDIS_URL, then $REDIS_URL. $DELAYQ_REDIS_USERNAME and $DELAYQ_REDIS_PASSWORD, "
                    + "when set, replace the URL's credentials.")
    String redis;

    @Option(names = "--queue", paramLabel = "NAME", description = "Queue name. Default: $DELAYQ_QUEUE.")
    String queue;

    @Option(names = "--shards", paramLabel = "N",
            description = "Shard count of a queue that enqueue, backfill or schedule add creates. Default: $DELAYQ_SHARDS. "
                    + "An existing queue's count is read from Redis (hash dq:{queue}:meta, field shards); a count given "
                    + "that differs is refused (exit 3). The count changes only through delayq reshard.")
    Integer shards;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long to wait for each Redis answer (default 10s).")
    Duration timeout;

    /** The settings seen from a command: its own options, then its parents', then the environment. */
    public static ConnectionSettings resolve(CommandSpec command) {
        String redis = null;
        String queue = null;
        Integer shards = null;
        Duration timeout = null;
        for (CommandSpec s = command; s != null; s = s.parent()) {
            CommandSpec mixin = s.mixins().get(MIXIN_NAME);
            if (mixin != null && mixin.userObject() instanceof ConnectionOptions o) {
                redis = redis != null ? redis : o.redis;
                queue = queue != null ? queue : o.queue;
                shards = shards != null ? shards : o.shards;
                timeout = timeout != null ? timeout : o.timeout;
            }
        }
        CliEnvironment env = DelayqCommand.environment(command);
        if (redis == null) {
            redis = env.first(REDIS_URL.name(), REDIS_URL_FALLBACK.name());
        }
        if (redis != null) {
            redis = RedisUrls.withCredentials(redis, env.first(REDIS_USERNAME.name()), env.first(REDIS_PASSWORD.name()));
        }
        if (queue == null) {
            queue = env.first(QUEUE.name());
        }
        if (shards == null) {
            String fromEnv = env.first(SHARDS.name());
            if (fromEnv != null) {
                try {
                    shards = Integer.parseInt(fromEnv);
                } catch (NumberFormatException e) {
                    throw CliException.usage("shards: " + SHARDS.name() + " must be a whole number, got '" + fromEnv + "'");
                }
            }
        }
        if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
            throw CliException.usage("timeout: must be positive, got " + timeout);
        }
        return new ConnectionSettings(redis, queue, shards, timeout == null ? Duration.ofSeconds(10) : timeout);
    }
}
