package io.delayq.worker.config;

import io.delayq.claim.RateLimit;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueName;
import io.delayq.redis.RedisEndpoint;
import io.delayq.schedule.PlanRules;
import io.delayq.shard.ShardRange;
import io.delayq.shard.Sharding;
import io.delayq.worker.delivery.HandlerPath;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/** Everything a worker needs to know, validated once at start. */
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
        PlanRules scheduleRules) {

    /** {@link #httpPort()} of a worker that serves no HTTP endpoint (an embedded worker's default). */
    public static final int NO_HTTP = -1;

    /** asynq's default too: long enough for real work, short enough that a hung handler does not hold a task for good. */
    public static final Duration DEFAULT_HANDLER_TIMEOUT = Duration.ofMinutes(30);

    private static final Duration MS = Duration.ofMillis(1);

    /**
     * Tasks one claim moves at most. Measured with 16 shards and the claim buffer (issue 17), 500 or 1,000 drained no
     * faster than 100 on this 2-core machine (the claims are already large; Redis and the JVM share the cores), so
     * the default the operator's CRD also states stays.
     */
    public static final int DEFAULT_BATCH_SIZE = 100;
    /** Handlers run on the worker's CPU; with the claim buffer (ClaimLoop) 16 threads keep fast handlers busy. */
    public static final int DEFAULT_CONCURRENCY = 16;
    /** Webhook requests in flight by default: enough for 5,000 tasks/s at 20 ms each with room to spare. */
    public static final int DEFAULT_WEBHOOK_CONCURRENCY = 256;

    /** Reads and validates {@code DELAYQ_*} variables; each error names its variable. The HTTP port defaults to 8080. */
    public static WorkerConfig fromEnv(Map<String, String> env) {
        return read(env, 8080);
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
        String url = s.string("DELAYQ_REDIS_URL", s.string("REDIS_URL", null));
        if (url == null) {
            throw new ConfigException("DELAYQ_REDIS_URL", "is required (e.g. redis://redis:6379)");
        }
        if (!url.matches("(redis|rediss|redis-sentinel|rediss-sentinel|redis-cluster|rediss-cluster)://.+")) {
            throw new ConfigException("DELAYQ_REDIS_URL", "must start with redis://, rediss://, redis-sentinel:// or redis-cluster:// "
                    + "(e.g. redis://redis:6379), got '" + RedisEndpoint.redact(url) + "'");
        }
        url = withCredentials(url, s.string("DELAYQ_REDIS_USERNAME", null), s.string("DELAYQ_REDIS_PASSWORD", null));
        String queue;
        try {
            queue = QueueName.require(s.required("DELAYQ_QUEUE", "the queue name"));
        } catch (io.delayq.InvalidInputException e) {
            throw new ConfigException("DELAYQ_QUEUE", e.getMessage().substring(e.field().length() + 2));
        }
        int shards = s.integer("DELAYQ_SHARDS", 0, 1, Sharding.MAX_SHARDS);
        if (shards == 0) {
            throw new ConfigException("DELAYQ_SHARDS", "is required (the queue's shard count, 1 to " + Sharding.MAX_SHARDS + ")");
        }
        int from = s.integer("DELAYQ_SHARD_FROM", 0, 0, shards - 1);
        int to = s.integer("DELAYQ_SHARD_TO", shards - 1, 0, shards - 1);
        if (to < from) {
            throw new ConfigException("DELAYQ_SHARD_TO", "must be at least DELAYQ_SHARD_FROM (" + from + "), got " + to);
        }
        int batch = s.integer("DELAYQ_BATCH_SIZE", DEFAULT_BATCH_SIZE, 1, 1000);
        Duration poll = s.duration("DELAYQ_POLL_INTERVAL", Duration.ofSeconds(1), Duration.ofMillis(10), Duration.ofMinutes(10));
        Duration lease = s.duration("DELAYQ_LEASE", Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofHours(12));

        RetryPolicy retry = new RetryPolicy(
                s.integer("DELAYQ_RETRY_MAX_ATTEMPTS", 5, 1, 1000),
                s.duration("DELAYQ_RETRY_BACKOFF_INITIAL", Duration.ofSeconds(1), Duration.ZERO, Duration.ofDays(7)),
                s.duration("DELAYQ_RETRY_BACKOFF_MAX", Duration.ofMinutes(5), Duration.ZERO, Duration.ofDays(30)),
                s.decimal("DELAYQ_RETRY_BACKOFF_MULTIPLIER", 2.0, 1.0, 100.0),
                s.decimal("DELAYQ_RETRY_JITTER", 0.2, 0.0, 1.0));
        if (retry.max().compareTo(retry.initial()) < 0) {
            throw new ConfigException("DELAYQ_RETRY_BACKOFF_MAX", "must be at least DELAYQ_RETRY_BACKOFF_INITIAL (" + Durations.format(retry.initial()) + ")");
        }
        DeadLetterPolicy dead = new DeadLetterPolicy(
                s.longValue("DELAYQ_DEAD_LETTER_MAX_COUNT", DeadLetterPolicy.DEFAULT.maxCount(), 0, Long.MAX_VALUE),
                s.duration("DELAYQ_DEAD_LETTER_MAX_AGE", DeadLetterPolicy.DEFAULT.maxAge(), Duration.ZERO, Duration.ofDays(3650)));
        double rate = s.decimal("DELAYQ_RATE_LIMIT", 0, 0, 1_000_000);
        int burst = s.integer("DELAYQ_RATE_BURST", rate > 0 ? (int) Math.max(1, Math.ceil(rate)) : 0, rate > 0 ? 1 : 0, 10_000_000);
        DeliveryKind delivery = s.choice("DELAYQ_DELIVERY", DeliveryKind.class, DeliveryKind.HANDLER);
        // a webhook slot mostly waits on the network: 5,000 tasks/s of 20 ms webhooks need ~100 requests in flight
        int concurrency = s.integer("DELAYQ_CONCURRENCY", delivery == DeliveryKind.WEBHOOK ? DEFAULT_WEBHOOK_CONCURRENCY : DEFAULT_CONCURRENCY, 1, 4096);
        URI webhook = null;
        String webhookText = s.string("DELAYQ_WEBHOOK_URL", null);
        if (delivery == DeliveryKind.WEBHOOK && webhookText == null) {
            throw new ConfigException("DELAYQ_WEBHOOK_URL", "is required when DELAYQ_DELIVERY=webhook");
        }
        if (webhookText != null) {
            try {
                webhook = URI.create(webhookText);
            } catch (IllegalArgumentException e) {
                throw new ConfigException("DELAYQ_WEBHOOK_URL", "must be an http(s) URL, got '" + webhookText + "'");
            }
            if (webhook.getScheme() == null || !(webhook.getScheme().equals("http") || webhook.getScheme().equals("https")) || webhook.getHost() == null) {
                throw new ConfigException("DELAYQ_WEBHOOK_URL", "must be an http(s) URL with a host, got '" + webhookText + "'");
            }
        }
        String streamKey = s.string("DELAYQ_STREAM_KEY", null);
        if (delivery == DeliveryKind.STREAM && streamKey == null) {
            throw new ConfigException("DELAYQ_STREAM_KEY", "is required when DELAYQ_DELIVERY=stream (e.g. orders:ready)");
        }
        return new WorkerConfig(url, queue, shards, new ShardRange(from, to), batch, poll, lease, concurrency, retry, dead,
                rate > 0 ? new RateLimit(rate, burst) : RateLimit.NONE, delivery,
                s.string("DELAYQ_HANDLER", null), webhook,
                s.duration("DELAYQ_WEBHOOK_TIMEOUT", Duration.ofSeconds(10), MS, Duration.ofMinutes(30)),
                s.string("DELAYQ_WEBHOOK_SECRET", null), streamKey,
                s.longValue("DELAYQ_STREAM_MAXLEN", 0, 0, Long.MAX_VALUE),
                s.string("DELAYQ_HTTP_PORT", null) == null ? defaultHttpPort : s.integer("DELAYQ_HTTP_PORT", 8080, 0, 65535),
                s.duration("DELAYQ_SHUTDOWN_GRACE", Duration.ofSeconds(30), Duration.ZERO, Duration.ofHours(1)),
                handlerTimeout(s),
                HandlerPath.of(s.string(HandlerPath.VARIABLE, null)),
                s.duration("DELAYQ_SCHEDULE_INTERVAL", Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(10)),
                scheduleRules(s));
    }

    /**
     * The recurring-task planner: DELAYQ_SCHEDULE_INTERVAL between turns (0s: this worker plans none),
     * occurrences enqueued DELAYQ_SCHEDULE_HORIZON ahead, later than DELAYQ_SCHEDULE_MISFIRE_THRESHOLD missed.
     */
    private static PlanRules scheduleRules(Settings s) {
        Duration interval = s.duration("DELAYQ_SCHEDULE_INTERVAL", Duration.ofSeconds(5), Duration.ZERO, Duration.ofMinutes(10));
        Duration horizon = s.duration("DELAYQ_SCHEDULE_HORIZON", Duration.ofMinutes(2), Duration.ofSeconds(2), Duration.ofDays(1));
        if (horizon.compareTo(interval.multipliedBy(2).plusSeconds(1)) < 0) {
            throw new ConfigException("DELAYQ_SCHEDULE_HORIZON", "must be at least twice DELAYQ_SCHEDULE_INTERVAL plus 1s ("
                    + Durations.format(interval.multipliedBy(2).plusSeconds(1)) + "), so that occurrences are enqueued before they are due, got "
                    + Durations.format(horizon));
        }
        Duration threshold = s.duration("DELAYQ_SCHEDULE_MISFIRE_THRESHOLD", Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofDays(1));
        return new PlanRules(horizon, threshold, PlanRules.defaults().maxPerTurn());
    }

    /** 0s turns the deadline off; otherwise at least 100 ms (the deadline is checked a few times per period). */
    private static Duration handlerTimeout(Settings s) {
        Duration d = s.duration("DELAYQ_HANDLER_TIMEOUT", DEFAULT_HANDLER_TIMEOUT, Duration.ZERO, Duration.ofDays(7));
        if (!d.isZero() && d.compareTo(Duration.ofMillis(100)) < 0) {
            throw new ConfigException("DELAYQ_HANDLER_TIMEOUT", "must be 0s (no deadline) or at least 100ms, got " + Durations.format(d));
        }
        return d;
    }

    /** Credentials from their own variables (a Kubernetes Secret) win over those in the URL. */
    static String withCredentials(String url, String user, String password) {
        if (user == null && password == null) {
            return url;
        }
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            throw new ConfigException("DELAYQ_REDIS_URL", "must look like redis://host:port, got '" + RedisEndpoint.redact(url) + "'");
        }
        String rest = url.substring(scheme + 3);
        String urlUser = "";
        int at = rest.lastIndexOf('@');
        if (at >= 0) {
            String info = rest.substring(0, at);
            int colon = info.indexOf(':');
            urlUser = colon >= 0 ? info.substring(0, colon) : info;
            rest = rest.substring(at + 1);
        }
        // only what the variables give is overridden: a user named in the URL stays when the Secret holds just a password
        String userPart = user != null ? encode(user) : urlUser;
        String userInfo = userPart + (password == null ? "" : ":" + encode(password)) + "@";
        return url.substring(0, scheme + 3) + userInfo + rest;
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A one-line summary for the start-up log, with no secret in it. */
    public String describe() {
        return "queue=" + queue + " shards=" + shards + " range=" + range + " batch=" + batchSize + " poll=" + Durations.format(pollInterval)
                + " lease=" + Durations.format(lease) + " handlerTimeout=" + (handlerTimeout.isZero() ? "none" : Durations.format(handlerTimeout))
                + " concurrency=" + concurrency + " maxAttempts=" + retry.maxAttempts()
                + " delivery=" + delivery.name().toLowerCase() + (webhookUrl != null ? " webhook=" + webhookUrl : "")
                + (streamKey != null ? " stream=" + streamKey : "") + (rateLimit.enabled() ? " rate=" + rateLimit.perSecond() + "/s" : "")
                + " redis=" + RedisEndpoint.redact(redisUrl) + (httpPort == NO_HTTP ? " http=off" : " http=:" + httpPort)
                + (scheduleInterval.isZero() ? " schedules=off" : " schedules=every " + Durations.format(scheduleInterval)
                + " horizon " + Durations.format(scheduleRules.horizon()));
    }
}
