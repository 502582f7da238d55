package io.delayq.operator.redis;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.backlog.QueueStats;
import io.delayq.backlog.StatsReader;
import io.delayq.layout.Layout;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.presence.PresenceRegistry;
import io.delayq.presence.WorkerPresence;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.ShardCountMismatchException;
import io.delayq.redis.RedisEndpoint;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.ShardRange;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Reads each DelayQueue's backlog and due forecast from Redis over one connection per DelayQueue, kept between
 * checks and replaced when the URL, the credentials or the TLS CA change. The shard count is recorded in (or
 * checked against) the queue's meta hash on the first look, and the server's safety facts are
 * re-read every {@link #FACTS_TTL}, not on every check.
 */
public final class QueueReader implements AutoCloseable {
    static final Duration FACTS_TTL = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(QueueReader.class);

    private final ClientResources resources = DefaultClientResources.create();
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final RedisInspector inspector;
    private final Duration timeout;
    private final Clock clock;

    public QueueReader(Duration timeout, Clock clock) {
        this.timeout = timeout;
        this.clock = clock;
        this.inspector = new RedisInspector(timeout);
    }

    /** A look at a Redis whose certificate, if any, the JVM's trust store vouches for. */
    public QueueReading read(String key, String url, RedisCredentials credentials, String queue, int shards, List<ShardRange> ranges) {
        return read(key, url, credentials, null, queue, shards, ranges);
    }

    /**
     * @param key   identifies the DelayQueue (namespace/name) whose connection to use
     * @param tlsCa PEM CA certificate(s) to trust for a {@code rediss} URL (spec.redis.tlsCaSecret), or null
     */
    public QueueReading read(String key, String url, RedisCredentials credentials, String tlsCa, String queue, int shards,
                             List<ShardRange> ranges) {
        return read(key, url, credentials, tlsCa, queue, shards, layout -> ranges, DueForecast.DEFAULT_WINDOWS);
    }

    /**
     * Reads the queue's layout from its meta hash first, then the backlog of the ranges {@code rangesOf} plans for
     * that layout (while a queue grows, the old layout's ranges and the new one's). The meta is checked against
     * {@code shards} (and recorded on first use) only when they agree: a spec asking for more shards than Redis
     * records is a grow the reconciler drives, not a mismatch; one asking for fewer is a refused shrink.
     *
     * @param forecastWindows the windows of each range's due forecast ({@code ForecastPolicy.windowsFor})
     */
    public QueueReading read(String key, String url, RedisCredentials credentials, String tlsCa, String queue, int shards,
                             Function<Layout, List<ShardRange>> rangesOf, List<Duration> forecastWindows) {
        Connection connection;
        try {
            connection = connection(key, url, credentials, tlsCa, queue, shards);
        } catch (RuntimeException e) {
            return QueueReading.failed(unavailable(url, credentials, e));
        }
        try {
            Layout layout = await(connection.protocol.refreshLayout());
            if (layout.shards() > shards) {
                return QueueReading.failed(new Problem(Reason.SHARD_COUNT_MISMATCH, "spec.shards: queue '" + queue + "' has "
                        + layout.shards() + " shards in Redis (" + ShardKeys.meta(queue) + "), more than spec.shards (" + shards
                        + "): shrinking is refused; set spec.shards to " + layout.shards() + ", or create a new DelayQueue and drain the old one"));
            }
            if (!connection.metaVerified && layout.shards() == shards) {
                await(connection.protocol.verifyMeta());
                connection.metaVerified = true;
                layout = connection.protocol.layout();
            }
            Map<ShardRange, QueueStats> backlog = new LinkedHashMap<>();
            Map<ShardRange, DueForecast> forecast = new LinkedHashMap<>();
            StatsReader stats = new StatsReader(connection.protocol.scope());
            ForecastReader forecasts = new ForecastReader(connection.protocol.scope());
            // every range's scripts sent at once, then awaited: one round trip's wait, not two per range
            Map<ShardRange, java.util.concurrent.CompletionStage<QueueStats>> statsSent = new LinkedHashMap<>();
            Map<ShardRange, java.util.concurrent.CompletionStage<DueForecast>> forecastSent = new LinkedHashMap<>();
            for (ShardRange range : rangesOf.apply(layout)) {
                statsSent.put(range, stats.stats(range.shards()));
                forecastSent.put(range, forecasts.forecast(range.shards(), forecastWindows));
            }
            for (ShardRange range : statsSent.keySet()) {
                backlog.put(range, await(statsSent.get(range)));
                forecast.put(range, await(forecastSent.get(range)));
            }
            // advisory, like the registry itself: a registry that cannot be read leaves the throughput unmeasured
            List<WorkerPresence> workers = workers(connection, forecast.values().stream().mapToLong(DueForecast::at).max().orElse(-1));
            Instant now = clock.instant();
            if (connection.facts == null || connection.factsAt.plus(FACTS_TTL).isBefore(now)) {
                connection.facts = inspector.inspect(connection.endpoint.commands());
                connection.factsAt = now;
            }
            return new QueueReading(backlog, connection.facts, null, layout, forecast, workers, connection.protocol.scope().protocol());
        } catch (ShardCountMismatchException e) {
            return QueueReading.failed(new Problem(Reason.SHARD_COUNT_MISMATCH, credentials.scrub(e.getMessage())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return QueueReading.failed(unavailable(url, credentials, e));
        } catch (RuntimeException | TimeoutException e) {
            // Drop the connection: the next check connects afresh instead of queueing on a dead one.
            forget(key);
            return QueueReading.failed(unavailable(url, credentials, e));
        }
    }

    private Connection connection(String key, String url, RedisCredentials credentials, String tlsCa, String queue, int shards) {
        int fingerprint = java.util.Objects.hash(url, credentials.fingerprint(), tlsCa, queue, shards);
        Connection existing = connections.get(key);
        if (existing != null && existing.fingerprint == fingerprint && existing.queue.isOpen()) {
            return existing;
        }
        forget(key);
        ProbeConnection probe = ProbeConnection.open(url, credentials, tlsCa, queue, shards, resources, timeout);
        Connection fresh = new Connection(fingerprint, probe, new PresenceRegistry(probe.endpoint(), queue, timeout));
        connections.put(key, fresh);
        return fresh;
    }

    /** The workers alive at Redis time {@code now} (-1: not known, none read); empty when the registry cannot be read. */
    private List<WorkerPresence> workers(Connection connection, long now) {
        if (now < 0) {
            return List.of();
        }
        try {
            return connection.presence.alive(now);
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** A connection of its own to a DelayQueue's Redis, for a job that outlives one check (the mover); the caller closes it. */
    public ProbeConnection open(String url, RedisCredentials credentials, String tlsCa, String queue, int shards) {
        return ProbeConnection.open(url, credentials, tlsCa, queue, shards, resources, timeout);
    }

    private <T> T await(java.util.concurrent.CompletionStage<T> stage) throws TimeoutException, InterruptedException {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new RedisUnavailableException(cause);
        }
    }

    private static Problem unavailable(String url, RedisCredentials credentials, Exception e) {
        String why = e instanceof TimeoutException ? "no answer within the time-out" : describe(e);
        String message = "cannot read the queue from Redis at " + RedisEndpoint.redact(url) + ": " + why;
        // Only the URL is redacted here: the regex would also eat text after it; the error texts
        // themselves never hold the URL's user-info, and any password in them is scrubbed.
        return new Problem(Reason.REDIS_UNAVAILABLE, credentials.scrub(message));
    }

    private static String describe(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        Throwable cause = e.getCause();
        // Lettuce wraps the useful part ("Connection refused", "WRONGPASS ...") one or two levels down.
        for (int depth = 0; cause != null && depth < 3; depth++, cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.toString();
    }

    /**
     * The recurring schedules of the queue behind the DelayQueue's connection, once a read opened it
     * (and checked the meta); empty before that or after the connection was dropped.
     */
    public java.util.Optional<io.delayq.schedule.Schedules> schedules(String key) {
        Connection c = connections.get(key);
        if (c == null || !c.metaVerified) {
            return java.util.Optional.empty();
        }
        if (c.schedules == null) {
            c.schedules = new io.delayq.schedule.Schedules(new io.delayq.client.AsyncDelayQueueClient(c.protocol,
                    io.delayq.client.DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES),
                    new io.delayq.schedule.ScheduleStore(c.endpoint, c.protocol.queue(), timeout), timeout);
        }
        return java.util.Optional.of(c.schedules);
    }

    /** Closes the DelayQueue's connection, for a deleted DelayQueue or a changed target. */
    public void forget(String key) {
        Connection gone = connections.remove(key);
        if (gone != null) {
            try {
                gone.queue.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the Redis connection of {} failed", key, e);
            }
        }
    }

    @Override
    public void close() {
        connections.keySet().forEach(this::forget);
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    private static final class Connection {
        final int fingerprint;
        final ProbeConnection queue;
        final RedisEndpoint endpoint;
        final QueueProtocol protocol;
        volatile boolean metaVerified;
        volatile RedisFacts facts;
        volatile Instant factsAt;
        volatile io.delayq.schedule.Schedules schedules;
        final PresenceRegistry presence;

        Connection(int fingerprint, ProbeConnection queue, PresenceRegistry presence) {
            this.fingerprint = fingerprint;
            this.presence = presence;
            this.queue = queue;
            this.endpoint = queue.endpoint();
            this.protocol = queue.protocol();
        }
    }
}
