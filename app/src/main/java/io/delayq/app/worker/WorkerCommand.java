package io.delayq.app.worker;

import io.delayq.DelayQueueException;
import io.delayq.DurationText;
import io.delayq.app.relay.OutboxBackstop;
import io.delayq.lifecycle.StopSignal;
import io.delayq.outbox.backstop.BackstopQuery;
import io.delayq.outbox.relay.OutboxRelay;
import io.delayq.outbox.relay.OutboxSettings;
import io.delayq.outbox.relay.RelayConfig;
import io.delayq.settings.ConfigException;
import io.delayq.settings.WorkerSettings;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.tracing.WorkerTelemetry;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a worker from {@code DELAYQ_*} environment variables until SIGTERM or SIGINT, then stops
 * gracefully and exits 0. A configuration error exits 2 with one line naming the variable; so does a
 * handler that cannot be loaded, with one line naming the class and every place the worker looked.
 */
public final class WorkerCommand {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerCommand.class);

    private WorkerCommand() {
    }

    public static int run(Map<String, String> env) {
        // caught from the start: the worker delivers before it has finished starting, and a SIGTERM then (a pod stopped
        // right after its start) must stop it gracefully too, not end the JVM with the default handler's 143
        StopSignal stopSignal = StopSignal.install();
        WorkerConfig config;
        long skew;
        Optional<RelayConfig> outbox;
        Optional<BackstopQuery> backstopQuery;
        try {
            config = WorkerConfig.fromEnv(env);
            skew = clockSkew(env.get(WorkerSettings.CLOCK_SKEW.name()));
            outbox = OutboxSettings.fromEnv(env, config.redisUrl(), config.queue(), config.shards());
            backstopQuery = OutboxSettings.backstop(env, config.queue());
        } catch (ConfigException e) {
            System.err.println("delayq worker: invalid configuration: " + e.getMessage());
            return 2;
        }
        OpenTelemetrySdk tracing;
        try {
            tracing = WorkerTelemetry.fromEnvironment(env);
        } catch (ConfigException e) {
            System.err.println("delayq worker: invalid configuration: " + e.getMessage());
            return 2;
        }
        if (tracing != null) {
            // global, so that a handler's own spans (GlobalOpenTelemetry.getTracer) nest under the delivery's
            try {
                GlobalOpenTelemetry.set(tracing);
            } catch (IllegalStateException alreadySet) {
                // a Java agent (or an earlier worker in this JVM) installed one: deliveries still use ours
                LOG.warn("OpenTelemetry: a global instance exists already; handlers' own spans use that one");
            }
        }
        OpenTelemetry otel = tracing == null ? OpenTelemetry.noop() : tracing;
        // a worker over the whole queue follows a reshard (LayoutFollower); one with an explicit range keeps it
        java.util.function.Consumer<Duration> stop;
        // the relay's meters show on whichever worker's /metrics is current (a layout change starts a new worker)
        RelayMeters relayMeters = new RelayMeters();
        try {
            if (LayoutFollower.wholeQueue(env)) {
                LayoutFollower follower = LayoutFollower.start(new LayoutFollower.Params(env,
                        c -> relayMeters.follow(Worker.start(c, Deliveries.forConfig(c), () -> System.currentTimeMillis() + skew, otel)),
                        LayoutFollower.CHECK_EVERY));
                stop = follower::shutdown;
            } else {
                Worker worker = relayMeters.follow(Worker.start(config, Deliveries.forConfig(config), () -> System.currentTimeMillis() + skew, otel));
                stop = worker::shutdown;
            }
        } catch (ConfigException e) {
            System.err.println("delayq worker: invalid configuration: " + e.getMessage());
            closeQuietly(tracing);
            return 2;
        } catch (DelayQueueException | io.lettuce.core.RedisException | java.io.UncheckedIOException | IllegalStateException e) {
            // Redis unreachable, HTTP port taken, handler failed to start: one line, not a stack trace
            System.err.println("delayq worker: cannot start: " + e.getMessage());
            closeQuietly(tracing);
            return 3;
        }
        OutboxRelay relay = outbox.map(c -> {
            LOG.info("outbox relay started: {} -> queue {} and the rows' other queues", c.jdbcUrl(), config.queue());
            return OutboxRelay.start(c, relayMeters.registry());
        }).orElse(null);
        OutboxBackstop backstop;
        try {
            backstop = relay == null ? null : backstopQuery.map(q -> OutboxBackstop.start(q, outbox.get(), config.shards(),
                    relayMeters.registry())).orElse(null);
        } catch (DelayQueueException | io.lettuce.core.RedisException e) {
            System.err.println("delayq worker: cannot start the outbox backstop: " + e.getMessage());
            relay.close();
            stop.accept(Duration.ZERO);
            closeQuietly(tracing);
            return 3;
        }
        awaitSignal(stopSignal);
        if (backstop != null) {
            backstop.close();
        }
        if (relay != null) {
            relay.close();
        }
        stop.accept(config.shutdownGrace());
        // after the last settle: the spans of the final deliveries are flushed before the exit
        closeQuietly(tracing);
        return 0;
    }

    private static void closeQuietly(OpenTelemetrySdk sdk) {
        if (sdk != null) {
            sdk.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** Blocks until SIGTERM or SIGINT has come to {@code stop} (at once when one came before). */
    public static void awaitSignal(StopSignal stop) {
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("stop signal received");
    }

    /** Testing hook: pretend the local clock is off by this much (e.g. {@code 1h}); firing must not change. */
    static long clockSkew(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        boolean negative = text.trim().startsWith("-");
        Duration d = DurationText.parse(negative ? text.trim().substring(1) : text);
        if (d == null) {
            throw new ConfigException(WorkerSettings.CLOCK_SKEW.name(), "must be a duration like 1h or -30s, got '" + text + "'");
        }
        return negative ? -d.toMillis() : d.toMillis();
    }
}
