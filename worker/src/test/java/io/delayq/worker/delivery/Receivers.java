package io.delayq.worker.delivery;

import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The webhook receivers a test starts, closed after each test, and the worker settings that deliver to one. Register it
 * before the test's {@link RunningWorkers}: extensions close in reverse order, so the workers stop before their receivers.
 */
final class Receivers implements AfterEachCallback {
    private final RedisServerExtension redis;
    private final String queue;
    private final int shards;
    private final Duration timeout;
    private final List<Receiver> started = new ArrayList<>();

    Receivers(RedisServerExtension redis, String queue, int shards, Duration timeout) {
        this.redis = redis;
        this.queue = queue;
        this.shards = shards;
        this.timeout = timeout;
    }

    /** Redis' clock, which the receiver stamps each request with (lag against due times). */
    long serverNow() {
        return TestQueue.serverNow(redis.admin().commands());
    }

    Receiver start(Receiver.Behaviour behaviour) {
        return keep(Receiver.start(this::serverNow, behaviour));
    }

    /** A receiver started some other way, closed with the others. */
    Receiver keep(Receiver receiver) {
        started.add(receiver);
        return receiver;
    }

    /** Worker settings delivering to {@code r} by webhook. */
    Map<String, String> env(Receiver r) {
        Map<String, String> env = RunningWorkers.env(redis.url(), queue, shards);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", r.url().toString());
        env.put("DELAYQ_WEBHOOK_TIMEOUT", timeout.toMillis() + "ms");
        return env;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(Receiver::close);
        started.clear();
    }
}
