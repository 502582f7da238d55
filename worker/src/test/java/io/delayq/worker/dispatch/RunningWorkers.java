package io.delayq.worker.dispatch;

import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.WorkerEnv;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.handler.TaskHandler;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.delayq.settings.WorkerSettings.*;

/**
 * Real workers for a test, started the way the process starts them ({@code WorkerConfig.fromEnv}
 * then {@code Worker.start}) and closed after the test. The base settings keep tests fast: short
 * polls, leases and backoffs, no jitter (so backoff bounds can be asserted), an ephemeral HTTP port.
 *
 * <p>Registered on an instance field ({@link #on}) as a JUnit extension, it also opens the
 * test's own {@link TestQueue} before each test and, after the test's {@code @AfterEach} methods,
 * closes the workers before that queue (handlers may still be using it).
 */
public final class RunningWorkers implements AutoCloseable, BeforeEachCallback, AfterEachCallback {
    private final List<Worker> started = new ArrayList<>();
    private final TestQueue queue;

    private RunningWorkers(TestQueue queue) {
        this.queue = queue;
    }

    /**
     * Workers closed after each test, then the given per-test queue (made by
     * {@link TestQueue#eachTest} and not registered itself: this extension opens and closes it).
     */
    public static RunningWorkers on(TestQueue queue) {
        return new RunningWorkers(queue);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        queue.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        try {
            close();
        } finally {
            queue.afterEach(context);
        }
    }

    /** The variables every test starts from; tests put their own on top. */
    public static Map<String, String> env(String redisUrl, String queue, int shards) {
        return WorkerEnv.of(redisUrl, queue, shards)
                .set(HTTP_PORT, 0)
                .set(POLL_INTERVAL, "200ms")
                .set(LEASE, "5s")
                .set(CONCURRENCY, 4)
                .set(RETRY_MAX_ATTEMPTS, 5)
                .set(RETRY_BACKOFF_INITIAL, "100ms")
                .set(RETRY_BACKOFF_MAX, "400ms")
                .set(RETRY_JITTER, 0)
                .set(SHUTDOWN_GRACE, "2s")
                .toMap();
    }

    public Worker start(Map<String, String> env, Function<RedisEndpoint, Delivery> delivery) {
        Worker w = Worker.start(WorkerConfig.fromEnv(env), delivery);
        started.add(w);
        return w;
    }

    /** A worker tracing its deliveries with {@code otel} (tests pass an in-process SDK). */
    public Worker start(Map<String, String> env, Function<RedisEndpoint, Delivery> delivery, io.opentelemetry.api.OpenTelemetry otel) {
        Worker w = Worker.start(WorkerConfig.fromEnv(env), delivery, System::currentTimeMillis, otel);
        started.add(w);
        return w;
    }

    /** A worker whose delivery is an in-process handler. */
    public Worker startHandler(Map<String, String> env, TaskHandler handler) {
        return start(env, redis -> new HandlerDelivery(handler));
    }

    /** A worker whose delivery is what the configuration says (webhook, stream), as the process builds it. */
    public Worker startConfigured(Map<String, String> env) {
        WorkerConfig config = WorkerConfig.fromEnv(env);
        Worker w = Worker.start(config, Deliveries.forConfig(config));
        started.add(w);
        return w;
    }

    /** {@code delayq_tasks_total{outcome=...}} of one worker. */
    public static double outcomes(Worker w, String outcome) {
        Counter c = w.registry().find("delayq.tasks").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    public static double reclaimed(Worker w, String result) {
        Counter c = w.registry().find("delayq.leases.reclaimed").tag("result", result).counter();
        return c == null ? 0 : c.count();
    }

    public static DistributionSummary claimBatches(Worker w) {
        return w.registry().find("delayq.claim.batch.size").summary();
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (RuntimeException e) {
                // closing the others matters more than one failed close
                System.err.println("closing a test worker failed: " + e);
            }
        }
        started.clear();
    }
}
