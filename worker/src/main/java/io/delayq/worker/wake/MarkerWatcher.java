package io.delayq.worker.wake;

import io.delayq.redis.RedisEndpoint;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.ObjIntConsumer;

/**
 * Blocks on the shards' wake-up markers with BZPOPMIN on a connection of its own, so a producer that
 * adds a task due sooner than anything the worker knows of wakes it at once. The marker is a key,
 * not a pub/sub message, so a worker that was not listening still finds it; a capped block time and
 * a client-side watchdog make sure a blocking call that never returns cannot freeze the shard.
 */
public final class MarkerWatcher implements Runnable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MarkerWatcher.class);

    private final RedisEndpoint redis;
    private final Map<String, Integer> shardByMarker;
    private final String[] markers;
    private final ObjIntConsumer<Long> onMarker;
    private final Duration block;
    private final Duration watchdog;
    private volatile boolean running = true;
    private volatile StatefulConnection<String, String> connection;
    private volatile long lastLoopNanos = System.nanoTime();

    /**
     * @param onMarker called with (due time in server ms, shard) for every marker popped
     */
    public MarkerWatcher(RedisEndpoint redis, Map<String, Integer> shardByMarker, Duration block, ObjIntConsumer<Long> onMarker) {
        this.redis = redis;
        this.shardByMarker = Map.copyOf(shardByMarker);
        this.markers = List.copyOf(shardByMarker.keySet()).toArray(String[]::new);
        this.onMarker = onMarker;
        this.block = block;
        this.watchdog = block.plusSeconds(3);
    }

    public long lastLoopNanos() {
        return lastLoopNanos;
    }

    @Override
    public void run() {
        long failures = 0;
        while (running) {
            lastLoopNanos = System.nanoTime();
            try {
                if (connection == null) {
                    connection = redis.newDedicatedConnection();
                }
                KeyValue<String, ScoredValue<String>> popped = commands(connection)
                        .bzpopmin(block.toMillis() / 1000.0, markers)
                        .get(watchdog.toMillis(), TimeUnit.MILLISECONDS);
                failures = 0;
                if (popped != null && popped.hasValue()) {
                    Integer shard = shardByMarker.get(popped.getKey());
                    if (shard != null) {
                        onMarker.accept((long) popped.getValue().getScore(), shard);
                    }
                }
            } catch (TimeoutException e) {
                LOG.warn("BZPOPMIN on the wake-up markers did not return within {} ms: reconnecting", watchdog.toMillis());
                reset();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | RuntimeException e) {
                if (!running) {
                    return;
                }
                failures++;
                LOG.debug("wake-up marker wait failed: {}", e.toString());
                reset();
                pause(Math.min(2000, 100 * failures));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static RedisClusterAsyncCommands<String, String> commands(StatefulConnection<String, String> c) {
        if (c instanceof StatefulRedisClusterConnection<?, ?> cluster) {
            return ((StatefulRedisClusterConnection<String, String>) cluster).async();
        }
        return ((StatefulRedisConnection<String, String>) c).async();
    }

    private void reset() {
        StatefulConnection<String, String> c = connection;
        connection = null;
        if (c != null) {
            try {
                c.closeAsync();
            } catch (RuntimeException ignored) {
                // already broken
            }
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        reset();
    }
}
