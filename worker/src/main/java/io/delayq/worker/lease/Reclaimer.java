package io.delayq.worker.lease;

import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.queue.QueueProtocol;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.ops.ShardFaults;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Gives expired leases back to the due set, on every shard of the queue and not only this worker's:
 * a shard whose workers all died is still recovered by any live worker. Runs on a jittered
 * schedule so that a fleet does not sweep in lockstep.
 */
public final class Reclaimer implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);
    static final int PER_CALL = 1000;

    private final QueueProtocol protocol;
    private final int maxAttempts;
    private final DeadLetterPolicy deadLetters;
    private final WorkerMetrics metrics;
    private final Duration interval;

    /** Shards whose in-flight set is looked at per second at most, so that sweeping every shard of a large queue stays cheap. */
    static final int CHECKS_PER_SECOND = 20;

    private final RedisClusterAsyncCommands<String, String> redis;

    public Reclaimer(QueueProtocol protocol, RedisClusterAsyncCommands<String, String> redis, int maxAttempts, DeadLetterPolicy deadLetters,
                     WorkerMetrics metrics, Duration lease) {
        this.protocol = protocol;
        this.redis = redis;
        this.maxAttempts = maxAttempts;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        long half = lease.toMillis() / 2;
        // with many shards the round is longer: one ZCARD per shard at most CHECKS_PER_SECOND a second
        this.interval = Duration.ofMillis(Math.max(Math.max(50, Math.min(half, 15_000)), protocol.shards() * 1000L / CHECKS_PER_SECOND));
    }

    /** The next delay: the base interval ± 50 %. */
    public long nextDelayMillis() {
        long base = interval.toMillis();
        return base / 2 + ThreadLocalRandom.current().nextLong(base + 1);
    }

    @Override
    public void run() {
        // one ZCARD per shard, sent together: only a shard with something in flight costs a script call
        List<CompletableFuture<Long>> held = new ArrayList<>(protocol.shards());
        for (int shard = 0; shard < protocol.shards(); shard++) {
            held.add(redis.zcard(protocol.keys(shard).inflight()).toCompletableFuture());
        }
        for (int shard = 0; shard < protocol.shards(); shard++) {
            try {
                if (held.get(shard).get(30, java.util.concurrent.TimeUnit.SECONDS) == 0) {
                    continue;
                }
                Reclaimed r;
                do {
                    r = protocol.reclaim(shard, PER_CALL, maxAttempts, deadLetters).toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
                    metrics.reclaimed(r.requeued(), r.dead());
                    if (r.requeued() + r.dead() > 0) {
                        LOG.info("shard {}: recovered {} expired lease(s), {} dead-lettered", shard, r.requeued(), r.dead());
                    }
                } while (r.requeued() + r.dead() == PER_CALL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.debug("reclaim on shard {} failed: {}", shard, e.toString());
                if (!ShardFaults.isDataFault(e.getCause() != null ? e.getCause() : e)) {
                    return; // Redis is away: the next run tries again
                }
                // one shard with a key of the wrong type must not strand the other shards' leases: go on
            }
        }
    }
}
