package io.delayq.testkit;

import io.delayq.client.DelayQueueClient;
import io.delayq.handler.TaskHandler;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.WorkerEnv;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import static io.delayq.settings.WorkerSettings.*;

/**
 * Runs the handler under test the way the fleet runs it: a real {@code redis-server} (the one on PATH, or the
 * binary the embedded-redis jar ships), a real in-process delayq worker with real claims, leases, retries and
 * dead letters, and a producer client. A fresh handler (from the supplier) and a fresh worker for every test,
 * on a flushed Redis.
 *
 * <pre>{@code
 * @RegisterExtension
 * static DelayqTestKit<OrderTimeoutHandler> delayq = DelayqTestKit.forHandler(OrderTimeoutHandler::new)
 *         .setting("DELAYQ_RETRY_MAX_ATTEMPTS", "3");
 *
 * @Test
 * void cancelsTheUnpaidOrder() {
 *     delayq.enqueue("order-8812");
 *     delayq.awaitAcked("order-8812");
 * }
 * }</pre>
 *
 * Registered on a static field, one Redis serves the whole class; on an instance field, each test gets its own.
 * The worker's defaults are made for tests: 100 ms polls, backoff 200 ms doubling up to 2 s without jitter
 * (so a backoff can be asserted), 3 attempts; {@link #setting} overrides any {@code DELAYQ_*} variable.
 */
public final class DelayqTestKit<H extends TaskHandler> implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private final Supplier<H> handlers;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final String[] redisArgs;
    private String queue = "test-queue";
    private int shards = 2;
    private Duration timeout = Duration.ofSeconds(10);

    private LocalRedisServer redis;
    private boolean redisPerTest;
    private H handler;
    private RecordingHandler recorder;
    private Worker worker;
    private DelayQueueClient client;

    private DelayqTestKit(Supplier<H> handlers, String... redisArgs) {
        this.handlers = Objects.requireNonNull(handlers, "handlers");
        this.redisArgs = redisArgs.clone();
        settings.put(POLL_INTERVAL.name(), "100ms");
        settings.put(LEASE.name(), "5s");
        settings.put(CONCURRENCY.name(), "4");
        settings.put(RETRY_MAX_ATTEMPTS.name(), "3");
        settings.put(RETRY_BACKOFF_INITIAL.name(), "200ms");
        settings.put(RETRY_BACKOFF_MULTIPLIER.name(), "2");
        settings.put(RETRY_BACKOFF_MAX.name(), "2s");
        settings.put(RETRY_JITTER.name(), "0");
        settings.put(SHUTDOWN_GRACE.name(), "2s");
    }

    /** A kit running a new handler from {@code handlers} in every test. */
    public static <H extends TaskHandler> DelayqTestKit<H> forHandler(Supplier<H> handlers) {
        return new DelayqTestKit<>(handlers);
    }

    /** As {@link #forHandler(Supplier)}, with extra {@code redis-server} arguments (e.g. {@code "--maxmemory-policy", "noeviction"}). */
    public static <H extends TaskHandler> DelayqTestKit<H> forHandler(Supplier<H> handlers, String... redisServerArgs) {
        return new DelayqTestKit<>(handlers, redisServerArgs);
    }

    /** The queue's name (default {@code test-queue}). */
    public DelayqTestKit<H> queue(String name) {
        this.queue = name;
        return this;
    }

    /** The queue's shard count (default 2, so that shard routing is exercised). */
    public DelayqTestKit<H> shards(int count) {
        this.shards = count;
        return this;
    }

    /** A worker setting, by its variable name ({@code DELAYQ_RETRY_MAX_ATTEMPTS}, {@code DELAYQ_LEASE}, ...). */
    public DelayqTestKit<H> setting(String variable, String value) {
        settings.put(variable, value);
        return this;
    }

    /** How long each {@code await...} waits before it fails (default 10 s). */
    public DelayqTestKit<H> timeout(Duration wait) {
        this.timeout = wait;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = LocalRedisServer.start(redisArgs);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (redis == null) {
            redis = LocalRedisServer.start(redisArgs);
            redisPerTest = true;
        }
        try (RedisEndpoint admin = RedisEndpoint.connect(redis.url())) {
            admin.commands().flushall().get();
        }
        startWorker();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stopWorker();
        if (redisPerTest) {
            redis.close();
            redis = null;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    /**
     * Restarts the test's worker with {@code overrides} on top of the kit's settings, and a new handler from the
     * supplier: for the one test that needs, say, other retry settings. The queue keeps its tasks.
     */
    public H restartWorker(Map<String, String> overrides) {
        stopWorker();
        startWorker(overrides);
        return handler;
    }

    private void startWorker() {
        startWorker(Map.of());
    }

    private void startWorker(Map<String, String> overrides) {
        Map<String, String> env = new LinkedHashMap<>(settings);
        env.putAll(overrides);
        env.putAll(WorkerEnv.of(redis.url(), queue, shards).toMap());
        handler = handlers.get();
        recorder = new RecordingHandler(handler);
        worker = Worker.startEmbedded(WorkerConfig.embedded(env), recorder);
        client = DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(shards).build();
    }

    private void stopWorker() {
        try {
            if (worker != null) {
                worker.shutdown(Duration.ofSeconds(2));
            }
        } finally {
            worker = null;
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }

    /** The handler instance of the current test (to look at what it did). */
    public H handler() {
        return handler;
    }

    /** The producer client on the test's queue: enqueue, cancel, reschedule, inspect, dead letters. */
    public DelayQueueClient client() {
        return requireRunning(client);
    }

    /** The running worker (its {@code registry()} holds the {@code delayq_*} metrics). */
    public Worker worker() {
        return requireRunning(worker);
    }

    /** {@code redis://127.0.0.1:<port>} of the test's Redis. */
    public String redisUrl() {
        return requireRunning(redis).url();
    }

    /** The Redis server's clock in epoch ms: the clock every due time, lease and backoff is counted on. */
    public long redisTime() {
        try {
            List<String> t = client().redis().commands().time().get(5, java.util.concurrent.TimeUnit.SECONDS);
            return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the Redis server's TIME: " + e.getMessage(), e);
        }
    }

    /** Enqueues a task due now with no payload. */
    public EnqueueResult enqueue(String id) {
        return client().enqueue(TaskSpec.of(id));
    }

    /** Enqueues a task due now with this payload. */
    public EnqueueResult enqueue(String id, String payload) {
        return client().enqueue(TaskSpec.of(id).payload(payload));
    }

    public EnqueueResult enqueue(TaskSpec task) {
        return client().enqueue(task);
    }

    /** Every call the handler got for {@code id} so far, in order. */
    public List<Attempt> attempts(String id) {
        return recorder.attempts(id);
    }

    /** Waits until the handler has been called {@code n} times for {@code id}; answers those calls. */
    public List<Attempt> awaitAttempts(String id, int n) {
        return await("task " + id + " reaches attempt " + n, () -> attempts(id).size() >= n ? Optional.of(attempts(id)) : Optional.empty());
    }

    /** Waits until the handler returned normally for {@code id} and the worker acked it (Redis holds no trace of it). */
    public Acked awaitAcked(String id) {
        return await("task " + id + " acked", () -> {
            List<Attempt> seen = attempts(id);
            if (seen.isEmpty() || !seen.get(seen.size() - 1).succeeded()) {
                failIfDead(id, "acked");
                return Optional.empty();
            }
            return isGone(client().inspect(id).state()) ? Optional.of(new Acked(id, seen.size())) : Optional.empty();
        });
    }

    /** Acked: nothing of the task is left, or only its completion record (a worker keeping results, DELAYQ_RESULTS_KEEP). */
    private static boolean isGone(TaskInfo.State state) {
        return state == TaskInfo.State.UNKNOWN || state == TaskInfo.State.SUCCEEDED;
    }

    /** Waits until attempt {@code attempt} of {@code id} failed and the worker scheduled the task again. */
    public Retried awaitRetried(String id, int attempt) {
        return await("task " + id + " retried after attempt " + attempt, () -> {
            List<Attempt> seen = attempts(id);
            if (seen.size() < attempt) {
                failIfDead(id, "retried after attempt " + attempt);
                return Optional.empty();
            }
            Attempt failed = seen.get(attempt - 1);
            if (failed.succeeded()) {
                throw new AssertionError("attempt " + attempt + " of task " + id + " succeeded: it was not retried");
            }
            if (seen.size() > attempt) {
                // already called again: the next attempt carries the due time the retry set
                long due = seen.get(attempt).task().dueAt();
                return Optional.of(new Retried(id, attempt, describe(failed.failure()), due, Duration.ofMillis(due - failed.finishedAt())));
            }
            TaskInfo info = client().inspect(id);
            if (info.state() == TaskInfo.State.DEAD) {
                throw new AssertionError("task " + id + " was dead-lettered after attempt " + attempt + ", not retried: " + info.lastError());
            }
            if (info.state() == TaskInfo.State.SCHEDULED && info.attempts() == attempt) {
                return Optional.of(new Retried(id, attempt, info.lastError(), info.score(), Duration.ofMillis(info.score() - failed.finishedAt())));
            }
            return Optional.empty();
        });
    }

    /** Waits until {@code id} is in the dead-letter set; answers its attempts and the reason Redis keeps. */
    public DeadLettered awaitDeadLettered(String id) {
        return await("task " + id + " dead-lettered", () -> {
            TaskInfo info = client().inspect(id);
            return info.state() == TaskInfo.State.DEAD ? Optional.of(new DeadLettered(id, info.attempts(), info.lastError())) : Optional.empty();
        });
    }

    private void failIfDead(String id, String expected) {
        TaskInfo info = client().inspect(id);
        if (info.state() == TaskInfo.State.DEAD) {
            throw new AssertionError("task " + id + " was dead-lettered after " + info.attempts() + " attempt(s), not " + expected + ": " + info.lastError());
        }
    }

    /** The text the worker keeps as a task's last error for a handler failure. */
    static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private <T> T await(String what, java.util.concurrent.Callable<Optional<T>> probe) {
        try {
            return Awaitility.await(what).atMost(timeout).pollInterval(Duration.ofMillis(20)).until(probe, Optional::isPresent).get();
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what
                    + "; the handler's calls so far: " + recorder.all().stream().map(a -> a.task().id() + "#" + a.number()
                    + (a.succeeded() ? " ok" : " " + describe(a.failure()))).toList(), e);
        }
    }

    private <T> T requireRunning(T part) {
        if (part == null) {
            throw new IllegalStateException("the test kit is not running: register it with @RegisterExtension and use it inside a test");
        }
        return part;
    }
}
