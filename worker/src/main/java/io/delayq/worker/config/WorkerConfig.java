package io.delayq.worker.config;

import io.delayq.DurationText;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.GroupWeights;
import io.delayq.claim.RateLimit;
import io.delayq.completion.ResultRetention;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.RedisUrls;
import io.delayq.schedule.PlanRules;
import io.delayq.settings.ConfigException;
import io.delayq.settings.Settings;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.ShardRange;
import io.delayq.worker.delivery.DeliveryProvider;
import io.delayq.worker.delivery.DeliveryProviders;
import io.delayq.worker.delivery.HandlerPath;
import io.delayq.worker.delivery.ProvidedDelivery;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.delayq.settings.WorkerSettings.*;

/**
 * Everything a worker needs to know, validated once at start. The variables' names, defaults and
 * bounds are the worker contract's ({@link WorkerSettings}); the rules between variables are here.
 * {@code redisTlsCa} is null when unset: {@code RedisEndpoint} then falls back to the JVM's trust.
 * {@code provided} is the checked settings of a delivery module ({@link DeliveryKind#PROVIDED}), null otherwise.
 * {@code results}: whether and how long the ack keeps a completion record of each task ({@link ResultRetention#OFF}: none).
 */
public record WorkerConfig(
        String redisUrl,
        String queue,
        int shards,
        ShardRange range,
        int batchSize,
        Duration pollInterval,
        Duration lease,
        int concurrency,
        RetryPolicy retry,
        DeadLetterPolicy deadLetters,
        RateLimit rateLimit,
        DeliveryKind delivery,
        String handlerClass,
        URI webhookUrl,
        Duration webhookTimeout,
        String webhookSecret,
        String streamKey,
        long streamMaxLen,
        int httpPort,
        Duration shutdownGrace,
        Duration handlerTimeout,
        HandlerPath handlerPath,
        Duration scheduleInterval,
        PlanRules scheduleRules,
        Path redisTlsCa,
        Duration claimAhead,
        ProvidedDelivery provided,
        ResultRetention results,
        GroupWeights groupWeights,
        GroupCaps groupCaps) {

    /** {@link #httpPort()} of a worker that serves no HTTP endpoint (an embedded worker's default). */
    public static final int NO_HTTP = -1;



    /** Reads and validates {@code DELAYQ_*} variables; each error names its variable. The HTTP port defaults to 8080. */
    public static WorkerConfig fromEnv(Map<String, String> env) {
        return read(env, WorkerSettings.DEFAULT_HTTP_PORT);
    }

    /**
     * The same settings for a worker embedded in an application ({@code Worker.startEmbedded(config, handler)}): it binds
     * no HTTP port unless {@code DELAYQ_HTTP_PORT} is given (0 picks a free one), so several can share a JVM.
     */
    public static WorkerConfig embedded(Map<String, String> settings) {
        return read(settings, NO_HTTP);
    }

    private static WorkerConfig read(Map<String, String> env, int defaultHttpPort) {
        Settings s = Settings.from(env);
        String url = redisUrl(s);
        String queue;
        try {
            queue = QueueName.require(s.required(QUEUE.name(), "the queue name"));
        } catch (io.delayq.InvalidInputException e) {
            throw new ConfigException(QUEUE.name(), e.getMessage().substring(e.field().length() + 2));
        }
        int shards = s.getInt(SHARDS);
        if (shards == 0) {
            throw new ConfigException(SHARDS.name(), "is required (the queue's shard count, 1 to " + SHARDS.max() + ")");
        }
        int from = s.integer(SHARD_FROM.name(), 0, 0, shards - 1);
        int to = s.integer(SHARD_TO.name(), shards - 1, 0, shards - 1);
        if (to < from) {
            throw new ConfigException(SHARD_TO.name(), "must be at least " + SHARD_FROM.name() + " (" + from + "), got " + to);
        }
        int batch = s.getInt(BATCH_SIZE);
        Duration poll = s.get(POLL_INTERVAL);
        Duration lease = s.get(LEASE);
        RetryPolicy retry = new RetryPolicy(
                s.getInt(RETRY_MAX_ATTEMPTS),
                s.get(RETRY_BACKOFF_INITIAL),
                s.get(RETRY_BACKOFF_MAX),
                s.get(RETRY_BACKOFF_MULTIPLIER),
                s.get(RETRY_JITTER));
        if (retry.max().compareTo(retry.initial()) < 0) {
            throw new ConfigException(RETRY_BACKOFF_MAX.name(), "must be at least " + RETRY_BACKOFF_INITIAL.name() + " (" + DurationText.format(retry.initial()) + ")");
        }
        DeadLetterPolicy dead = new DeadLetterPolicy(s.get(DEAD_LETTER_MAX_COUNT), s.get(DEAD_LETTER_MAX_AGE));
        double rate = s.get(RATE_LIMIT);
        int burst = s.integer(RATE_BURST.name(), rate > 0 ? (int) Math.max(1, Math.ceil(rate)) : 0, rate > 0 ? 1 : 0, (int) RATE_BURST.max());
        double groupRate = s.get(GROUP_RATE_LIMIT);
        int groupBurst = s.integer(GROUP_RATE_BURST.name(), groupRate > 0 ? (int) Math.max(1, Math.ceil(groupRate)) : 0,
                groupRate > 0 ? 1 : 0, (int) GROUP_RATE_BURST.max());
        RateLimit limits = (rate > 0 ? new RateLimit(rate, burst) : RateLimit.NONE);
        if (groupRate > 0) {
            limits = limits.perGroup(groupRate, groupBurst);
        }
        DeliveryProvider provider = provider(s);
        DeliveryKind delivery = provider != null ? DeliveryKind.PROVIDED : s.choice(DELIVERY.name(), DeliveryKind.class, DeliveryKind.HANDLER);
        // a webhook slot mostly waits on the network: 5,000 tasks/s of 20 ms webhooks need ~100 requests in flight
        int concurrency = s.integer(CONCURRENCY.name(),
                provider != null ? provider.defaultConcurrency()
                        : delivery == DeliveryKind.WEBHOOK ? WorkerSettings.DEFAULT_WEBHOOK_CONCURRENCY : WorkerSettings.DEFAULT_CONCURRENCY,
                (int) CONCURRENCY.min(), (int) CONCURRENCY.max());
        URI webhook = null;
        String webhookText = s.string(WEBHOOK_URL);
        if (delivery == DeliveryKind.WEBHOOK && webhookText == null) {
            throw new ConfigException(WEBHOOK_URL.name(), "is required when " + DELIVERY.name() + "=webhook");
        }
        if (webhookText != null) {
            try {
                webhook = URI.create(webhookText);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(WEBHOOK_URL.name(), "must be an http(s) URL, got '" + webhookText + "'");
            }
            if (webhook.getScheme() == null || !(webhook.getScheme().equals("http") || webhook.getScheme().equals("https")) || webhook.getHost() == null) {
                throw new ConfigException(WEBHOOK_URL.name(), "must be an http(s) URL with a host, got '" + webhookText + "'");
            }
        }
        String streamKey = s.string(STREAM_KEY);
        if (delivery == DeliveryKind.STREAM && streamKey == null) {
            throw new ConfigException(STREAM_KEY.name(), "is required when " + DELIVERY.name() + "=stream (e.g. orders:ready)");
        }
        WorkerConfig config = new WorkerConfig(url, queue, shards, new ShardRange(from, to), batch, poll, lease, concurrency, retry, dead,
                limits, delivery,
                s.string(HANDLER), webhook,
                s.get(WEBHOOK_TIMEOUT),
                s.string(WEBHOOK_SECRET), streamKey,
                s.get(STREAM_MAXLEN),
                s.has(HTTP_PORT) ? s.getInt(HTTP_PORT) : defaultHttpPort,
                s.get(SHUTDOWN_GRACE),
                handlerTimeout(s),
                HandlerPath.of(s.string(HANDLER_PATH)),
                s.get(SCHEDULE_INTERVAL),
                scheduleRules(s),
                s.has(REDIS_TLS_CA) ? Path.of(s.string(REDIS_TLS_CA)) : null,
                claimAhead(s, lease), null,
                new ResultRetention(s.get(RESULTS_KEEP), s.get(RESULTS_MAX_PER_SHARD)),
                groupWeights(s), groupCaps(s));
        return provider == null ? config : config.with(provider.configure(s, config));
    }

    /**
     * {@code DELAYQ_REDIS_URL} (or {@code REDIS_URL}) with {@code DELAYQ_REDIS_USERNAME} / {@code DELAYQ_REDIS_PASSWORD} in it:
     * the Redis a worker process uses, and the outbox relay process with it.
     */
    public static String redisUrl(Settings s) {
        String url = s.string(REDIS_URL.name(), s.string(REDIS_URL_FALLBACK));
        if (url == null) {
            throw new ConfigException(REDIS_URL.name(), "is required (e.g. redis://redis:6379)");
        }
        if (!url.matches("(redis|rediss|redis-sentinel|rediss-sentinel|redis-cluster|rediss-cluster)://.+")) {
            throw new ConfigException(REDIS_URL.name(), "must start with redis://, rediss://, redis-sentinel:// or redis-cluster:// "
                    + "(e.g. redis://redis:6379), got '" + RedisEndpoint.redact(url) + "'");
        }
        if (s.has(REDIS_USERNAME) && !s.has(REDIS_PASSWORD)) {
            // Lettuce would read a user-info without ':' as a password: a user alone cannot be expressed
            throw new ConfigException(REDIS_USERNAME.name(), "needs " + REDIS_PASSWORD.name() + " too (Redis authenticates a user by its password)");
        }
        return RedisUrls.withCredentials(url, s.string(REDIS_USERNAME), s.string(REDIS_PASSWORD));
    }

    /**
     * The delivery module {@code DELAYQ_DELIVERY} names, null for a built-in delivery. The built-in names come first, so
     * no module can take one over.
     */
    private static DeliveryProvider provider(Settings s) {
        String name = s.string(DELIVERY);
        if (name == null || Arrays.stream(DeliveryKind.values())
                .anyMatch(k -> k != DeliveryKind.PROVIDED && k.name().equalsIgnoreCase(name))) {
            return null;
        }
        return DeliveryProviders.named(name).orElseThrow(() -> {
            List<String> installed = DeliveryProviders.installed().stream().map(DeliveryProvider::name).toList();
            return new ConfigException(DELIVERY.name(), "must be handler, webhook, stream or the name of an installed delivery module (installed: "
                    + (installed.isEmpty() ? "none" : String.join(", ", installed)) + "), got '" + name + "'");
        });
    }

    private WorkerConfig with(ProvidedDelivery p) {
        return new WorkerConfig(redisUrl, queue, shards, range, batchSize, pollInterval, lease, concurrency, retry, deadLetters, rateLimit,
                delivery, handlerClass, webhookUrl, webhookTimeout, webhookSecret, streamKey, streamMaxLen, httpPort, shutdownGrace,
                handlerTimeout, handlerPath, scheduleInterval, scheduleRules, redisTlsCa, claimAhead, p, results, groupWeights, groupCaps);
    }

    private static GroupCaps groupCaps(Settings s) {
        try {
            return GroupCaps.parse(s.getInt(GROUP_MAX_RUNNING), GROUP_MAX_RUNNING_OVERRIDES.name(), s.string(GROUP_MAX_RUNNING_OVERRIDES));
        } catch (io.delayq.InvalidInputException e) {
            throw new ConfigException(GROUP_MAX_RUNNING_OVERRIDES.name(), e.getMessage().substring(e.field().length() + 2));
        }
    }

    private static GroupWeights groupWeights(Settings s) {
        try {
            return GroupWeights.parse(GROUP_WEIGHTS.name(), s.string(GROUP_WEIGHTS));
        } catch (io.delayq.InvalidInputException e) {
            throw new ConfigException(GROUP_WEIGHTS.name(), e.getMessage().substring(e.field().length() + 2));
        }
    }

    /** At most {@link WorkerSettings#maxClaimAhead} of the lease. Not set: the default, shortened to that for a short lease. */
    private static Duration claimAhead(Settings s, Duration lease) {
        Duration d = s.get(CLAIM_AHEAD);
        Duration limit = WorkerSettings.maxClaimAhead(lease);
        if (!s.has(CLAIM_AHEAD)) {
            return d.compareTo(limit) > 0 ? limit : d;
        }
        if (d.compareTo(limit) > 0) {
            throw new ConfigException(CLAIM_AHEAD.name(), "must be 0s (off) or at most a tenth of " + LEASE.name() + " ("
                    + DurationText.format(limit) + "), got " + DurationText.format(d));
        }
        return d;
    }

    /**
     * The recurring-task planner: DELAYQ_SCHEDULE_INTERVAL between turns (0s: this worker plans none),
     * occurrences enqueued DELAYQ_SCHEDULE_HORIZON ahead, later than DELAYQ_SCHEDULE_MISFIRE_THRESHOLD missed.
     */
    private static PlanRules scheduleRules(Settings s) {
        Duration interval = s.get(SCHEDULE_INTERVAL);
        Duration horizon = s.get(SCHEDULE_HORIZON);
        if (horizon.compareTo(interval.multipliedBy(2).plusSeconds(1)) < 0) {
            throw new ConfigException(SCHEDULE_HORIZON.name(), "must be at least twice " + SCHEDULE_INTERVAL.name() + " plus 1s ("
                    + DurationText.format(interval.multipliedBy(2).plusSeconds(1)) + "), so that occurrences are enqueued before they are due, got "
                    + DurationText.format(horizon));
        }
        Duration threshold = s.get(SCHEDULE_MISFIRE_THRESHOLD);
        return new PlanRules(horizon, threshold, PlanRules.defaults().maxPerTurn());
    }

    /** 0s turns the deadline off; otherwise at least 100 ms (the deadline is checked a few times per period). */
    private static Duration handlerTimeout(Settings s) {
        Duration d = s.get(HANDLER_TIMEOUT);
        if (!d.isZero() && d.compareTo(Duration.ofMillis(100)) < 0) {
            throw new ConfigException(HANDLER_TIMEOUT.name(), "must be 0s (no deadline) or at least 100ms, got " + DurationText.format(d));
        }
        return d;
    }

    /** A one-line summary for the start-up log, with no secret in it. */
    public String describe() {
        return "queue=" + queue + " shards=" + shards + " range=" + range + " batch=" + batchSize + " poll=" + DurationText.format(pollInterval)
                + " lease=" + DurationText.format(lease) + " handlerTimeout=" + (handlerTimeout.isZero() ? "none" : DurationText.format(handlerTimeout))
                + " claimAhead=" + (claimAhead.isZero() ? "off" : DurationText.format(claimAhead)) + " concurrency=" + concurrency + " maxAttempts=" + retry.maxAttempts()
                + " delivery=" + (provided != null ? provided.name() : delivery.name().toLowerCase()) + (rateLimit.enabled() ? " rate=" + rateLimit.perSecond() + "/s" : "")
                + (rateLimit.groupsLimited() ? " groupRate=" + rateLimit.groupPerSecond() + "/s" : "")
                + (groupWeights.any() ? " groupWeights=" + groupWeights : "")
                + (groupCaps.any() ? " groupMaxRunning=" + groupCaps : "")
                + " redis=" + RedisEndpoint.redact(redisUrl) + (httpPort == NO_HTTP ? " http=off" : " http=:" + httpPort)
                + (scheduleInterval.isZero() ? " schedules=off" : " schedules=every " + DurationText.format(scheduleInterval)
                + " horizon " + DurationText.format(scheduleRules.horizon()));
    }
}
