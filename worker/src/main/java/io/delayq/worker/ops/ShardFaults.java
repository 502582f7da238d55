package io.delayq.worker.ops;

import io.delayq.queue.QueueProtocol;
import io.delayq.shard.ShardKeyTypes;
import io.delayq.worker.metrics.WorkerMetrics;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Shards whose claims Redis refuses because of their data, not the connection: a key of the wrong type
 * (a producer's {@code SET dq:{q:0}:due ...}) fails every script on that shard. The worker keeps serving
 * its other shards, retries this one at the poll interval, shows it in {@code delayq_shard_faulty} and
 * logs it once per shard per {@link #REPORT_EVERY} (not at every poll), naming the keys at fault.
 */
public final class ShardFaults {
    private static final Logger LOG = LoggerFactory.getLogger(ShardFaults.class);
    public static final Duration REPORT_EVERY = Duration.ofMinutes(1);
    /** Redis' own states that pass by themselves: not a fault of the shard's data. */
    private static final String[] TRANSIENT = {"LOADING", "BUSY", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "MOVED", "ASK",
            "NOSCRIPT", "NOREPLICAS", "OOM", "NOAUTH", "NOPERM", "WRONGPASS"};

    private final QueueProtocol protocol;
    private final RedisClusterAsyncCommands<String, String> redis;
    private final WorkerMetrics metrics;
    private final LongSupplier nanoTime;
    private final Map<Integer, Long> lastReported = new ConcurrentHashMap<>();
    private final Map<Integer, Boolean> checking = new ConcurrentHashMap<>();

    public ShardFaults(QueueProtocol protocol, RedisClusterAsyncCommands<String, String> redis, WorkerMetrics metrics) {
        this(protocol, redis, metrics, System::nanoTime);
    }

    ShardFaults(QueueProtocol protocol, RedisClusterAsyncCommands<String, String> redis, WorkerMetrics metrics, LongSupplier nanoTime) {
        this.protocol = protocol;
        this.redis = redis;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
    }

    /** True for an error Redis answered about the shard's data (WRONGTYPE, a script error), false for the connection or a passing state. */
    public static boolean isDataFault(Throwable error) {
        Throwable e = error;
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (!(e instanceof RedisCommandExecutionException) || e.getMessage() == null) {
            return false;
        }
        String m = e.getMessage();
        for (String state : TRANSIENT) {
            if (m.startsWith(state)) {
                return false;
            }
        }
        return true;
    }

    /** A claim (or another call) on {@code shard} failed with a data fault. */
    public void failed(int shard, Throwable error) {
        metrics.shardFaulty(shard, true);
        long now = nanoTime.getAsLong();
        Long last = lastReported.get(shard);
        if (last != null && now - last < REPORT_EVERY.toNanos()) {
            return;
        }
        if (last == null ? lastReported.putIfAbsent(shard, now) != null : !lastReported.replace(shard, last, now)) {
            return; // reported meanwhile by another thread
        }
        String redisSaid = rootMessage(error);
        ShardKeyTypes.problems(redis, protocol.keys(shard)).whenComplete((wrong, e) -> {
            String keys = e != null || wrong.isEmpty() ? "" : String.join("; ", wrong) + ". ";
            LOG.error("shard {} of queue '{}' cannot be claimed: {}Its tasks stay in Redis untouched; this worker keeps serving "
                            + "its other shards and retries this one at the poll interval (next report in {} s). Fix or rename the "
                            + "key (docs/protocol.md, \"What the worker refuses\"). Redis said: {}",
                    shard, protocol.queue(), keys, REPORT_EVERY.toSeconds(), redisSaid);
        });
    }

    /**
     * A claim on {@code shard} succeeded. The fault is over once no key has the wrong type: a claim that
     * found nothing due touches only the due sets, so its success alone proves little.
     */
    public void ok(int shard) {
        if (!lastReported.containsKey(shard) || checking.putIfAbsent(shard, Boolean.TRUE) != null) {
            return;
        }
        ShardKeyTypes.problems(redis, protocol.keys(shard)).whenComplete((wrong, e) -> {
            checking.remove(shard);
            if (e == null && wrong.isEmpty() && lastReported.remove(shard) != null) {
                metrics.shardFaulty(shard, false);
                LOG.info("shard {} of queue '{}' can be claimed again", shard, protocol.queue());
            }
        });
    }

    private static String rootMessage(Throwable error) {
        Throwable e = error;
        while (e instanceof CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        return String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim();
    }
}
