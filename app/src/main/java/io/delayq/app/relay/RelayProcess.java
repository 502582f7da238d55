package io.delayq.app.relay;

import io.delayq.health.ProbeServer;
import io.delayq.outbox.relay.OutboxRelay;
import io.delayq.redis.RedisEndpoint;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * A relay (and its backstop, when configured) running on its own, with the worker's probes: {@code /metrics} (the
 * relay's and the JVM's meters), {@code /healthz} (the process answers) and {@code /readyz} (the relay listens on
 * the database and Redis answers a PING: rows committed now get copied now).
 */
public final class RelayProcess implements AutoCloseable {
    private static final long PING_TIMEOUT_MS = 2000;

    private final PrometheusMeterRegistry registry;
    private final RedisEndpoint redis;
    private final OutboxRelay relay;
    private final OutboxBackstop backstop;
    private final ProbeServer probes;
    private volatile boolean stopping;

    private RelayProcess(RelayProcessConfig config) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        // a connection of its own for readiness: the relay's connects only when rows come
        redis = RedisEndpoint.connect(config.relay().redisUrl(), null, config.relay().redisTimeout(), config.relay().redisTlsCa());
        OutboxRelay startedRelay = null;
        OutboxBackstop startedBackstop = null;
        try {
            startedRelay = OutboxRelay.start(config.relay(), registry);
            startedBackstop = config.backstop().map(q -> OutboxBackstop.start(q, config.relay(), config.shards(), registry)).orElse(null);
            probes = new ProbeServer(config.httpPort(), "delayq-relay-http", registry::scrape, () -> true, this::ready);
        } catch (IOException e) {
            closeAll(startedRelay, startedBackstop);
            throw new UncheckedIOException("cannot listen on DELAYQ_HTTP_PORT " + config.httpPort() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAll(startedRelay, startedBackstop);
            throw e;
        }
        relay = startedRelay;
        backstop = startedBackstop;
    }

    /** Connects to Redis, starts the relay (and backstop) and serves the probes. */
    public static RelayProcess start(RelayProcessConfig config) {
        return new RelayProcess(config);
    }

    public boolean ready() {
        if (stopping || !relay.listening()) {
            return false;
        }
        try {
            return "PONG".equals(redis.commands().ping().get(PING_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    public int httpPort() {
        return probes.port();
    }

    public OutboxRelay relay() {
        return relay;
    }

    private void closeAll(OutboxRelay r, OutboxBackstop b) {
        if (b != null) {
            b.close();
        }
        if (r != null) {
            r.close();
        }
        redis.close();
    }

    /** Stops the backstop, then the relay after its current round; the probes answer not ready meanwhile. */
    @Override
    public void close() {
        stopping = true;
        closeAll(relay, backstop);
        probes.close();
    }
}
