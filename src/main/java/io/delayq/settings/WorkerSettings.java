package io.delayq.settings;

import io.delayq.shard.Sharding;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The worker contract: every {@code DELAYQ_*} variable a worker reads, with its default and bounds.
 * The worker reads through these ({@code WorkerConfig.fromEnv}), the operator writes by these names
 * ({@code WorkerEnvironment}) and its {@code DelayQueueSpec} takes its schema defaults and bounds from
 * the constants below, and test and benchmark env builders name variables from here; a round-trip
 * test in the operator feeds what the operator writes into the worker.
 *
 * <p>The {@code DEFAULT_*} / {@code MAX_*} constants are compile-time constants so that the CRD
 * annotations ({@code @Default}, {@code @Max}) can use them.
 */
public final class WorkerSettings {
    /**
     * Tasks one claim moves at most. With 16 shards, the default concurrency and the claim buffer (W1 warm, 2 cores),
     * 100 gives claims of ~70 and ~5-7 ms of worker CPU per 1,000 tasks, 250 and 500 ~4 ms, 1,000 ~3-4 ms, with Redis
     * ~10% cheaper from 500 up. 500 keeps most of that while one claim holds Redis for ~2 ms instead of ~4. How much a
     * claim takes is still bounded by the free handler slots plus a buffer of ~100 ms of the handlers' measured work,
     * so a slow handler never claims more than it can start soon.
     */
    public static final int DEFAULT_BATCH_SIZE = 500;
    public static final int MAX_BATCH_SIZE = 1000;
    /** Handlers run on the worker's CPU; with the claim buffer (ClaimLoop) 16 threads keep fast handlers busy. */
    public static final int DEFAULT_CONCURRENCY = 16;
    /**
     * DELAYQ_CONCURRENCY when DELAYQ_DELIVERY is webhook and the variable is not set: a webhook slot mostly waits on
     * the network. 5,000 tasks/s of 20 ms webhooks need ~100 requests in flight on paper, but on a loaded machine the
     * receiver's answers come late: on 2 cores shared with Redis and the receiver, 256 slots fell behind in 2 runs of
     * 6 (lag p50 0.6-1.7 s) where 512 kept up, at a lower lag in 5 of 6. Past that the limit is CPU, not slots (512 and
     * 1024 can both fall behind there; docs/bench.md, "Webhook delivery"). The slots are requests in flight: on the
     * asynchronous path no thread waits on a request (on the blocking one, threads are started as the requests need them).
     */
    public static final int DEFAULT_WEBHOOK_CONCURRENCY = 512;
    public static final int MAX_CONCURRENCY = 4096;
    public static final String DEFAULT_POLL_INTERVAL = "1s";
    public static final String DEFAULT_LEASE = "30s";
    public static final String DEFAULT_SHUTDOWN_GRACE = "30s";
    /**
     * In the benchmark's W2 (16 shards, 1,000 tasks/s spread over 2 s) a shard's tasks come ~16 ms apart, and a claim
     * per task would be most of Redis's CPU per task; a claim that also takes what is due in the next 100 ms moves ~6 (see
     * docs/worker.md, "Claiming ahead").
     */
    public static final String DEFAULT_CLAIM_AHEAD = "100ms";

    /**
     * The widest claim-ahead window a lease allows: a task claimed ahead waits under its claim's lease, so the window
     * stays well inside it and a held task has nearly its whole lease left when it starts. The worker refuses a wider
     * DELAYQ_CLAIM_AHEAD and shortens its default to this; the operator refuses a wider spec.claimAhead.
     */
    public static Duration maxClaimAhead(Duration lease) {
        return lease.dividedBy(10);
    }
    /** asynq's default too: long enough for real work, short enough that a hung handler does not hold a task for good. */
    public static final String DEFAULT_HANDLER_TIMEOUT = "30m";
    public static final int DEFAULT_MAX_ATTEMPTS = 5;
    public static final int MAX_ATTEMPTS = 1000;
    public static final String DEFAULT_BACKOFF_INITIAL = "1s";
    public static final String DEFAULT_BACKOFF_MAX = "5m";
    public static final double DEFAULT_BACKOFF_MULTIPLIER = 2.0;
    /** As for a task's own {@code backoffMultiplier}: growth beyond this is capped by the longest backoff within a few attempts anyway. */
    public static final double MAX_BACKOFF_MULTIPLIER = 100.0;
    public static final double DEFAULT_JITTER = 0.2;
    public static final String DEFAULT_DEAD_LETTER_MAX_AGE = "14d";
    public static final long DEFAULT_DEAD_LETTER_MAX_COUNT = 100_000;
    /** Completion records are off by default: the ack then does what it did before (docs/bench.md, "Completion records"). */
    public static final String DEFAULT_RESULTS_KEEP = "0s";
    public static final long DEFAULT_RESULTS_MAX_PER_SHARD = 10_000;
    public static final long MAX_RESULTS_PER_SHARD = 1_000_000;
    /** Tasks per second, across the fleet or of one group. */
    public static final double MAX_RATE = 1_000_000;
    public static final int MAX_RATE_BURST = 10_000_000;
    public static final String DEFAULT_WEBHOOK_TIMEOUT = "10s";
    public static final int DEFAULT_HTTP_PORT = 8080;
    public static final String DEFAULT_SCHEDULE_INTERVAL = "5s";
    public static final String DEFAULT_SCHEDULE_HORIZON = "2m";
    public static final String DEFAULT_SCHEDULE_MISFIRE_THRESHOLD = "1m";
    /**
     * DELAYQ_CONCURRENCY when DELAYQ_DELIVERY is kafka and the variable is not set: a slot waits for the broker's
     * acknowledgement (acks=all, a few milliseconds), and the producer batches the records of the slots in flight.
     */
    public static final int DEFAULT_KAFKA_CONCURRENCY = 256;
    /** Long enough for a broker's leader election, short enough that a down cluster is retried with the queue's backoff. */
    public static final String DEFAULT_KAFKA_TIMEOUT = "10s";
    /** Outbox rows one relay round claims (module delayq-outbox, {@code RelayConfig}). */
    public static final int DEFAULT_OUTBOX_BATCH_SIZE = 500;
    public static final int MAX_OUTBOX_BATCH_SIZE = 10_000;
    public static final String DEFAULT_OUTBOX_POLL_INTERVAL = "1s";
    public static final String DEFAULT_OUTBOX_RETRY_DELAY = "1s";
    public static final String DEFAULT_OUTBOX_BACKSTOP_INTERVAL = "5m";

    /** What every delayq variable's name starts with, {@link #REDIS_URL_FALLBACK} aside. */
    public static final String PREFIX = "DELAYQ_";

    /** Whether delayq reads the variable: a {@code DELAYQ_*} one, or {@link #REDIS_URL_FALLBACK}. */
    public static boolean isDelayqVariable(String name) {
        return name.startsWith(PREFIX) || name.equals(REDIS_URL_FALLBACK.name());
    }

    /** A properties file with the same keys; the environment wins over it. */
    public static final Setting.Text CONFIG_FILE = new Setting.Text("DELAYQ_CONFIG_FILE");

    public static final Setting.Text REDIS_URL = new Setting.Text("DELAYQ_REDIS_URL");
    /** Read when {@link #REDIS_URL} is unset (the usual name outside delayq). */
    public static final Setting.Text REDIS_URL_FALLBACK = new Setting.Text("REDIS_URL");
    public static final Setting.Text REDIS_USERNAME = new Setting.Text("DELAYQ_REDIS_USERNAME");
    public static final Setting.Text REDIS_PASSWORD = new Setting.Text("DELAYQ_REDIS_PASSWORD");
    /** A PEM file of CA certificates for {@code rediss://}. */
    public static final Setting.Text REDIS_TLS_CA = new Setting.Text("DELAYQ_REDIS_TLS_CA");

    public static final Setting.Text QUEUE = new Setting.Text("DELAYQ_QUEUE");
    /** Required: 0 stands for "not given". */
    public static final Setting.Whole SHARDS = new Setting.Whole("DELAYQ_SHARDS", 0, 1, Sharding.MAX_SHARDS);
    /** Bounded by the shard count at run time: {@code 0 .. shards - 1}, the first shard by default. */
    public static final Setting.Whole SHARD_FROM = new Setting.Whole("DELAYQ_SHARD_FROM", 0, 0, Sharding.MAX_SHARDS - 1);
    /** Bounded by the shard count at run time: {@code SHARD_FROM .. shards - 1}, the last shard by default. */
    public static final Setting.Whole SHARD_TO = new Setting.Whole("DELAYQ_SHARD_TO", Sharding.MAX_SHARDS - 1, 0, Sharding.MAX_SHARDS - 1);

    public static final Setting.Whole BATCH_SIZE = new Setting.Whole("DELAYQ_BATCH_SIZE", DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE);
    public static final Setting.Span POLL_INTERVAL = Setting.Span.of("DELAYQ_POLL_INTERVAL", DEFAULT_POLL_INTERVAL, "10ms", "10m");
    public static final Setting.Span LEASE = Setting.Span.of("DELAYQ_LEASE", DEFAULT_LEASE, "100ms", "12h");
    public static final Setting.Whole CONCURRENCY = new Setting.Whole("DELAYQ_CONCURRENCY", DEFAULT_CONCURRENCY, 1, MAX_CONCURRENCY);
    /** {@code 0s} turns the deadline off; otherwise at least 100ms (checked by the worker). */
    public static final Setting.Span HANDLER_TIMEOUT = Setting.Span.of("DELAYQ_HANDLER_TIMEOUT", DEFAULT_HANDLER_TIMEOUT, "0s", "7d");
    public static final Setting.Span SHUTDOWN_GRACE = Setting.Span.of("DELAYQ_SHUTDOWN_GRACE", DEFAULT_SHUTDOWN_GRACE, "0s", "1h");
    /**
     * Claims also take tasks due within this window and the worker holds them until due; {@code 0s} turns it off.
     * At most a tenth of {@link #LEASE} (checked by the worker; the default shrinks to that under a short lease).
     */
    public static final Setting.Span CLAIM_AHEAD = Setting.Span.of("DELAYQ_CLAIM_AHEAD", DEFAULT_CLAIM_AHEAD, "0s", "10s");

    public static final Setting.Whole RETRY_MAX_ATTEMPTS = new Setting.Whole("DELAYQ_RETRY_MAX_ATTEMPTS", DEFAULT_MAX_ATTEMPTS, 1, MAX_ATTEMPTS);
    public static final Setting.Span RETRY_BACKOFF_INITIAL = Setting.Span.of("DELAYQ_RETRY_BACKOFF_INITIAL", DEFAULT_BACKOFF_INITIAL, "0s", "7d");
    /** At least {@link #RETRY_BACKOFF_INITIAL} (checked by the worker). */
    public static final Setting.Span RETRY_BACKOFF_MAX = Setting.Span.of("DELAYQ_RETRY_BACKOFF_MAX", DEFAULT_BACKOFF_MAX, "0s", "30d");
    public static final Setting.Decimal RETRY_BACKOFF_MULTIPLIER = new Setting.Decimal("DELAYQ_RETRY_BACKOFF_MULTIPLIER", DEFAULT_BACKOFF_MULTIPLIER, 1.0, MAX_BACKOFF_MULTIPLIER);
    public static final Setting.Decimal RETRY_JITTER = new Setting.Decimal("DELAYQ_RETRY_JITTER", DEFAULT_JITTER, 0.0, 1.0);

    public static final Setting.Whole DEAD_LETTER_MAX_COUNT = new Setting.Whole("DELAYQ_DEAD_LETTER_MAX_COUNT", DEFAULT_DEAD_LETTER_MAX_COUNT, 0, Long.MAX_VALUE);
    public static final Setting.Span DEAD_LETTER_MAX_AGE = Setting.Span.of("DELAYQ_DEAD_LETTER_MAX_AGE", DEFAULT_DEAD_LETTER_MAX_AGE, "0s", "3650d");

    /**
     * How long a completion record (when, after how many attempts, by which worker, a short result) is kept after a
     * task's ack, for {@code inspect}; {@code 0s} (default) keeps none (docs/protocol.md, "Completion records").
     */
    public static final Setting.Span RESULTS_KEEP = Setting.Span.of("DELAYQ_RESULTS_KEEP", DEFAULT_RESULTS_KEEP, "0s", "30d");
    /** The most completion records one shard keeps; the oldest go first. */
    public static final Setting.Whole RESULTS_MAX_PER_SHARD =
            new Setting.Whole("DELAYQ_RESULTS_MAX_PER_SHARD", DEFAULT_RESULTS_MAX_PER_SHARD, 1, MAX_RESULTS_PER_SHARD);

    /** Tasks per second across the fleet; 0 = no limit. */
    public static final Setting.Decimal RATE_LIMIT = new Setting.Decimal("DELAYQ_RATE_LIMIT", 0, 0, MAX_RATE);
    /** Default {@code ceil(rate)}; at least 1 when a rate is set (checked by the worker). */
    public static final Setting.Whole RATE_BURST = new Setting.Whole("DELAYQ_RATE_BURST", 0, 0, MAX_RATE_BURST);
    /**
     * Tasks per second of each group (the record's {@code group}) across the fleet, 0 = none; divided per shard
     * like {@link #RATE_LIMIT} (protocol.md, "Groups").
     */
    public static final Setting.Decimal GROUP_RATE_LIMIT = new Setting.Decimal("DELAYQ_GROUP_RATE_LIMIT", 0, 0, MAX_RATE);
    /** Default {@code ceil(group rate)}; at least 1 when a group rate is set (checked by the worker). */
    public static final Setting.Whole GROUP_RATE_BURST = new Setting.Whole("DELAYQ_GROUP_RATE_BURST", 0, 0, MAX_RATE_BURST);
    /**
     * Weights of groups in the claim's round robin, {@code paying=3,trial=1} (1 to 100; a group not named weighs 1;
     * at most 100 groups): io.delayq.claim.GroupWeights reads it (protocol.md, "Groups").
     */
    public static final Setting.Text GROUP_WEIGHTS = new Setting.Text("DELAYQ_GROUP_WEIGHTS");
    /**
     * The most tasks of one group running at once across the fleet (0 = no cap; 1 = one at a time): a claim takes a
     * capped group's task only against a permit (io.delayq.claim.GroupCaps, protocol.md "Groups capped at N running").
     */
    public static final Setting.Whole GROUP_MAX_RUNNING = new Setting.Whole("DELAYQ_GROUP_MAX_RUNNING", 0, 0, io.delayq.claim.GroupCaps.MAX_CAP);
    /** Caps of named groups, {@code payouts=1,webhooks=5} (1 to 10,000; at most 100 groups), over {@link #GROUP_MAX_RUNNING}. */
    public static final Setting.Text GROUP_MAX_RUNNING_OVERRIDES = new Setting.Text("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES");

    /** {@code handler} (default), {@code webhook}, {@code stream}, or an installed delivery module's name ({@code kafka}). */
    public static final Setting.Text DELIVERY = new Setting.Text("DELAYQ_DELIVERY");
    public static final Setting.Text HANDLER = new Setting.Text("DELAYQ_HANDLER");
    /** {@code :}-separated handler jars and folders of jars; unset: {@code /app/handlers} if it exists. */
    public static final Setting.Text HANDLER_PATH = new Setting.Text("DELAYQ_HANDLER_PATH");
    public static final Setting.Text WEBHOOK_URL = new Setting.Text("DELAYQ_WEBHOOK_URL");
    public static final Setting.Span WEBHOOK_TIMEOUT = Setting.Span.of("DELAYQ_WEBHOOK_TIMEOUT", DEFAULT_WEBHOOK_TIMEOUT, "1ms", "30m");
    public static final Setting.Text WEBHOOK_SECRET = new Setting.Text("DELAYQ_WEBHOOK_SECRET");
    public static final Setting.Text STREAM_KEY = new Setting.Text("DELAYQ_STREAM_KEY");
    /** 0 = no trimming. */
    public static final Setting.Whole STREAM_MAXLEN = new Setting.Whole("DELAYQ_STREAM_MAXLEN", 0, 0, Long.MAX_VALUE);

    /** {@code host:port[,host:port...]}: required when DELAYQ_DELIVERY=kafka. */
    public static final Setting.Text KAFKA_BOOTSTRAP_SERVERS = new Setting.Text("DELAYQ_KAFKA_BOOTSTRAP_SERVERS");
    /** Required when DELAYQ_DELIVERY=kafka; a Kafka topic name (letters, digits, {@code . _ -}, at most 249). */
    public static final Setting.Text KAFKA_TOPIC = new Setting.Text("DELAYQ_KAFKA_TOPIC");
    /**
     * How long one send may wait for the broker (the topic's metadata, then the acknowledgement of all in-sync
     * replicas, the producer's own retries included) before the task is retried.
     */
    public static final Setting.Span KAFKA_TIMEOUT = Setting.Span.of("DELAYQ_KAFKA_TIMEOUT", DEFAULT_KAFKA_TIMEOUT, "100ms", "10m");
    /** The producer's {@code client.id}; default {@code delayq-QUEUE}. */
    public static final Setting.Text KAFKA_CLIENT_ID = new Setting.Text("DELAYQ_KAFKA_CLIENT_ID");
    /** {@code none} (default), {@code gzip}, {@code snappy}, {@code lz4} or {@code zstd}. */
    public static final Setting.Text KAFKA_COMPRESSION = new Setting.Text("DELAYQ_KAFKA_COMPRESSION");
    /** {@code plaintext} (default), {@code ssl}, {@code sasl_plaintext} or {@code sasl_ssl}. */
    public static final Setting.Text KAFKA_SECURITY_PROTOCOL = new Setting.Text("DELAYQ_KAFKA_SECURITY_PROTOCOL");
    /** {@code PLAIN} (default), {@code SCRAM-SHA-256} or {@code SCRAM-SHA-512}, with a {@code sasl_*} protocol. */
    public static final Setting.Text KAFKA_SASL_MECHANISM = new Setting.Text("DELAYQ_KAFKA_SASL_MECHANISM");
    public static final Setting.Text KAFKA_USERNAME = new Setting.Text("DELAYQ_KAFKA_USERNAME");
    public static final Setting.Text KAFKA_PASSWORD = new Setting.Text("DELAYQ_KAFKA_PASSWORD");
    /** A PEM file of CA certificates for {@code ssl} / {@code sasl_ssl}; unset: the JVM's trust. */
    public static final Setting.Text KAFKA_TLS_CA = new Setting.Text("DELAYQ_KAFKA_TLS_CA");
    /** PEM files of a client certificate chain and its unencrypted PKCS#8 key, for brokers that require mutual TLS. */
    public static final Setting.Text KAFKA_TLS_CERT = new Setting.Text("DELAYQ_KAFKA_TLS_CERT");
    public static final Setting.Text KAFKA_TLS_KEY = new Setting.Text("DELAYQ_KAFKA_TLS_KEY");

    /**
     * The outbox relay a worker process ({@code delayq worker}) runs beside the worker: {@code jdbc:postgresql://host:port/database};
     * unset: no relay (docs/outbox.md). The relay writes to the worker's Redis and may create its queue.
     */
    public static final Setting.Text OUTBOX_URL = new Setting.Text("DELAYQ_OUTBOX_URL");
    public static final Setting.Text OUTBOX_USER = new Setting.Text("DELAYQ_OUTBOX_USER");
    public static final Setting.Text OUTBOX_PASSWORD = new Setting.Text("DELAYQ_OUTBOX_PASSWORD");
    public static final Setting.Whole OUTBOX_BATCH_SIZE =
            new Setting.Whole("DELAYQ_OUTBOX_BATCH_SIZE", DEFAULT_OUTBOX_BATCH_SIZE, 1, MAX_OUTBOX_BATCH_SIZE);
    /** The wait between relay rounds when no NOTIFY comes. */
    public static final Setting.Span OUTBOX_POLL_INTERVAL = Setting.Span.of("DELAYQ_OUTBOX_POLL_INTERVAL", DEFAULT_OUTBOX_POLL_INTERVAL, "10ms", "1h");
    /** The pause after a failed relay round. */
    public static final Setting.Span OUTBOX_RETRY_DELAY = Setting.Span.of("DELAYQ_OUTBOX_RETRY_DELAY", DEFAULT_OUTBOX_RETRY_DELAY, "10ms", "10m");
    /** The backstop query of the worker's queue (columns task_id, due_at and maybe payload); unset: no backstop. */
    public static final Setting.Text OUTBOX_BACKSTOP_QUERY = new Setting.Text("DELAYQ_OUTBOX_BACKSTOP_QUERY");
    public static final Setting.Span OUTBOX_BACKSTOP_INTERVAL =
            Setting.Span.of("DELAYQ_OUTBOX_BACKSTOP_INTERVAL", DEFAULT_OUTBOX_BACKSTOP_INTERVAL, "1s", "1d");

    /** Default {@link #DEFAULT_HTTP_PORT} for a worker process, none for an embedded worker; 0 = a free port. */
    public static final Setting.Whole HTTP_PORT = new Setting.Whole("DELAYQ_HTTP_PORT", DEFAULT_HTTP_PORT, 0, 65535);

    /** {@code 0s}: this worker plans no schedule. */
    public static final Setting.Span SCHEDULE_INTERVAL = Setting.Span.of("DELAYQ_SCHEDULE_INTERVAL", DEFAULT_SCHEDULE_INTERVAL, "0s", "10m");
    /** At least twice the interval plus 1s (checked by the worker). */
    public static final Setting.Span SCHEDULE_HORIZON = Setting.Span.of("DELAYQ_SCHEDULE_HORIZON", DEFAULT_SCHEDULE_HORIZON, "2s", "1d");
    public static final Setting.Span SCHEDULE_MISFIRE_THRESHOLD =
            Setting.Span.of("DELAYQ_SCHEDULE_MISFIRE_THRESHOLD", DEFAULT_SCHEDULE_MISFIRE_THRESHOLD, "1s", "1d");

    /** A testing hook: pretend the local clock is off by this much ({@code 1h}, {@code -30s}); firing must not change. */
    public static final Setting.Text CLOCK_SKEW = new Setting.Text("DELAYQ_CLOCK_SKEW");

    /**
     * The Kafka delivery's variables (module delayq-delivery-kafka), read only when DELAYQ_DELIVERY=kafka.
     */
    public static final List<Setting> KAFKA = List.of(KAFKA_BOOTSTRAP_SERVERS, KAFKA_TOPIC, KAFKA_TIMEOUT, KAFKA_CLIENT_ID, KAFKA_COMPRESSION,
            KAFKA_SECURITY_PROTOCOL, KAFKA_SASL_MECHANISM, KAFKA_USERNAME, KAFKA_PASSWORD, KAFKA_TLS_CA, KAFKA_TLS_CERT, KAFKA_TLS_KEY);

    /** The outbox relay's variables (module delayq-outbox), read by the {@code delayq worker} process. */
    public static final List<Setting> OUTBOX = List.of(OUTBOX_URL, OUTBOX_USER, OUTBOX_PASSWORD, OUTBOX_BATCH_SIZE, OUTBOX_POLL_INTERVAL,
            OUTBOX_RETRY_DELAY, OUTBOX_BACKSTOP_QUERY, OUTBOX_BACKSTOP_INTERVAL);

    /** Every variable of the contract, in the order of the documentation. */
    public static final List<Setting> ALL = Stream.<List<Setting>>of(
            List.of(CONFIG_FILE, REDIS_URL, REDIS_URL_FALLBACK, REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS_CA,
                    QUEUE, SHARDS, SHARD_FROM, SHARD_TO, BATCH_SIZE, POLL_INTERVAL, LEASE, CLAIM_AHEAD, CONCURRENCY, HANDLER_TIMEOUT, SHUTDOWN_GRACE,
                    RETRY_MAX_ATTEMPTS, RETRY_BACKOFF_INITIAL, RETRY_BACKOFF_MAX, RETRY_BACKOFF_MULTIPLIER, RETRY_JITTER,
                    DEAD_LETTER_MAX_COUNT, DEAD_LETTER_MAX_AGE, RESULTS_KEEP, RESULTS_MAX_PER_SHARD, RATE_LIMIT, RATE_BURST, GROUP_RATE_LIMIT, GROUP_RATE_BURST, GROUP_WEIGHTS,
                    GROUP_MAX_RUNNING, GROUP_MAX_RUNNING_OVERRIDES,
                    DELIVERY, HANDLER, HANDLER_PATH, WEBHOOK_URL, WEBHOOK_TIMEOUT, WEBHOOK_SECRET, STREAM_KEY, STREAM_MAXLEN),
            KAFKA,
            List.of(HTTP_PORT, SCHEDULE_INTERVAL, SCHEDULE_HORIZON, SCHEDULE_MISFIRE_THRESHOLD),
            OUTBOX,
            List.of(CLOCK_SKEW)).flatMap(List::stream).toList();

    private WorkerSettings() {
    }
}
