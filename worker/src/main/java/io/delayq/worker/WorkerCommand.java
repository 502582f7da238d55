package io.delayq.worker;

import io.delayq.DelayQueueException;
import io.delayq.worker.config.ConfigException;
import io.delayq.worker.config.Durations;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.layout.LayoutFollower;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

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
        WorkerConfig config;
        long skew;
        try {
            config = WorkerConfig.fromEnv(env);
            skew = clockSkew(env.get("DELAYQ_CLOCK_SKEW"));
        } catch (ConfigException e) {
            System.err.println("delayq worker: invalid configuration: " + e.getMessage());
            return 2;
        }
        // a worker over the whole queue follows a reshard (LayoutFollower); one with an explicit range keeps it
        java.util.function.Consumer<Duration> stop;
        try {
            if (LayoutFollower.wholeQueue(env)) {
                LayoutFollower follower = LayoutFollower.start(new LayoutFollower.Params(env,
                        c -> Worker.start(c, Deliveries.forConfig(c), () -> System.currentTimeMillis() + skew), LayoutFollower.CHECK_EVERY));
                stop = follower::shutdown;
            } else {
                Worker worker = Worker.start(config, Deliveries.forConfig(config), () -> System.currentTimeMillis() + skew);
                stop = worker::shutdown;
            }
        } catch (ConfigException e) {
            System.err.println("delayq worker: invalid configuration: " + e.getMessage());
            return 2;
        } catch (DelayQueueException | io.lettuce.core.RedisException | java.io.UncheckedIOException | IllegalStateException e) {
            // Redis unreachable, HTTP port taken, handler failed to start: one line, not a stack trace
            System.err.println("delayq worker: cannot start: " + e.getMessage());
            return 3;
        }
        awaitSignal();
        stop.accept(config.shutdownGrace());
        return 0;
    }

    /** Blocks until SIGTERM or SIGINT. */
    static void awaitSignal() {
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
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
        Duration d = Durations.parse(negative ? text.trim().substring(1) : text);
        if (d == null) {
            throw new ConfigException("DELAYQ_CLOCK_SKEW", "must be a duration like 1h or -30s, got '" + text + "'");
        }
        return negative ? -d.toMillis() : d.toMillis();
    }
}
