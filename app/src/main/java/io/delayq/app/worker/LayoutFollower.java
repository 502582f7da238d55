package io.delayq.app.worker;

import io.delayq.settings.WorkerSettings;
import io.delayq.layout.RecordedLayout;
import io.delayq.redis.RedisEndpoint;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A worker over the whole queue (no {@code DELAYQ_SHARD_FROM} / {@code DELAYQ_SHARD_TO}) that follows the
 * queue's shard count: it starts on the count the meta hash records (not a stale {@code DELAYQ_SHARDS}) and,
 * when a reshard grows the queue, stops the worker gracefully and starts it again over every shard of the new
 * layout, in the same process. Old shards stay inside the new range, so nothing waiting there is stranded.
 * A worker with an explicit range keeps its range: the operator rolls ranges.
 */
public final class LayoutFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LayoutFollower.class);
    public static final Duration CHECK_EVERY = Duration.ofSeconds(5);

    /** @param starter starts a worker from a configuration (the executable's delivery, or a test's handler) */
    public record Params(Map<String, String> env, Function<WorkerConfig, Worker> starter, Duration checkEvery) {
    }

    private final Params p;
    private final RedisEndpoint meta;
    private final String queue;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "delayq-layout");
        t.setDaemon(true);
        return t;
    });
    private volatile Worker worker;
    private volatile WorkerConfig config;

    private LayoutFollower(Params params, WorkerConfig first) {
        this.p = params;
        this.queue = first.queue();
        this.meta = RedisEndpoint.connect(first.redisUrl());
    }

    /** True when the environment names no shard range: the worker serves every shard and may follow a grow. */
    public static boolean wholeQueue(Map<String, String> env) {
        return !env.containsKey(WorkerSettings.SHARD_FROM.name()) && !env.containsKey(WorkerSettings.SHARD_TO.name());
    }

    public static LayoutFollower start(Params params) {
        WorkerConfig first = WorkerConfig.fromEnv(params.env());
        LayoutFollower f = new LayoutFollower(params, first);
        try {
            int recorded = f.recordedShards();
            f.config = recorded > 0 && recorded != first.shards() ? f.configFor(recorded) : first;
            f.worker = params.starter().apply(f.config);
        } catch (RuntimeException e) {
            f.meta.close();
            throw e;
        }
        long every = params.checkEvery().toMillis();
        f.timer.scheduleWithFixedDelay(f::check, every, every, TimeUnit.MILLISECONDS);
        return f;
    }

    public Worker worker() {
        return worker;
    }

    public int shards() {
        return config.shards();
    }

    private void check() {
        try {
            int recorded = recordedShards();
            if (recorded > config.shards()) {
                LOG.info("queue '{}' grew from {} to {} shards: restarting the worker over shards 0..{}", queue, config.shards(), recorded,
                        recorded - 1);
                WorkerConfig next = configFor(recorded);
                worker.shutdown(config.shutdownGrace());
                config = next;
                worker = p.starter().apply(next);
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot check the layout of queue '{}' (will try again): {}", queue, e.toString());
        }
    }

    private WorkerConfig configFor(int shards) {
        Map<String, String> env = new HashMap<>(p.env());
        env.put(WorkerSettings.SHARDS.name(), String.valueOf(shards));
        return WorkerConfig.fromEnv(env);
    }

    private int recordedShards() {
        return RecordedLayout.read(meta, queue, Duration.ofSeconds(5)).map(RecordedLayout::shards).orElse(0);
    }

    public void shutdown(Duration grace) {
        timer.shutdownNow();
        try {
            worker.shutdown(grace);
        } finally {
            meta.close();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            worker.close();
        } finally {
            meta.close();
        }
    }
}
