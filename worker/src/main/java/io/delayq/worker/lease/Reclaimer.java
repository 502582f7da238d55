package io.delayq.worker.lease;

import io.delayq.bucket.BucketLayout;
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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Gives expired leases back to the due set, on every shard of the queue and not only this worker's:
 * a shard whose workers all died is still recovered by any live worker. Runs on a jittered
 * schedule so that a fleet does not sweep in lockstep. Only a shard with something in flight costs a
 * script call; which ones those are is asked with one {@code EXISTS} per {@link #KEYS_PER_CHECK}
 * in-flight sets on a standalone Redis (an idle queue of 1,024 shards: four commands a sweep), and with
 * one {@code ZCARD} per shard on a Cluster, where the sets live in different slots.
 */
public final class Reclaimer implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);
    static final int PER_CALL = 1000;

    private final QueueProtocol protocol;
    private final int maxAttempts;
    private final DeadLetterPolicy deadLetters;
    private final WorkerMetrics metrics;
    private final Duration interval;

    /** On a Cluster, shards whose in-flight set is looked at per second at most, so that sweeping every shard of a large queue stays cheap. */
    static final int CHECKS_PER_SECOND = 20;
    /** In-flight sets one {@code EXISTS} asks about on a standalone Redis. */
    static final int KEYS_PER_CHECK = 256;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final boolean cluster;

    /** @param cluster the queue is on a Redis Cluster (its shards' in-flight sets are in different slots) */
    public Reclaimer(QueueProtocol protocol, RedisClusterAsyncCommands<String, String> redis, boolean cluster, int maxAttempts,
                     DeadLetterPolicy deadLetters, WorkerMetrics metrics, Duration lease) {
        this.protocol = protocol;
        this.redis = redis;
        this.cluster = cluster;
        this.maxAttempts = maxAttempts;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        long base = Math.max(50, Math.min(lease.toMillis() / 2, 15_000));
        // on a Cluster, many shards make the round longer: one ZCARD (protocol 3: one EXISTS) per shard, at most
        // CHECKS_PER_SECOND a second
        this.interval = Duration.ofMillis(cluster ? Math.max(base, protocol.shards() * 1000L / CHECKS_PER_SECOND) : base);
    }

    /** The base interval between sweeps (each is jittered ± 50 %). */
    Duration interval() {
        return interval;
    }

    /** The next delay: the base interval ± 50 %. */
    public long nextDelayMillis() {
        long base = interval.toMillis();
        return base / 2 + ThreadLocalRandom.current().nextLong(base + 1);
    }

    @Override
    public void run() {
        List<Integer> holding;
        try {
            holding = shardsHoldingLeases();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception e) {
            LOG.debug("reclaim: counting in-flight sets failed: {}", e.toString());
            return; // Redis is away: the next run tries again
        }
        for (int shard : holding) {
            try {
                Reclaimed r;
                do {
                    r = protocol.reclaim(shard, PER_CALL, maxAttempts, deadLetters).toCompletableFuture().get(30, TimeUnit.SECONDS);
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

    /**
     * The shards with something in flight: per group of {@link #KEYS_PER_CHECK} shards one {@code EXISTS} (standalone),
     * then, in a group where some but not all sets exist, one {@code ZCARD} per shard; on a Cluster one {@code ZCARD} per shard.
     * Protocol 3 asks {@link #bucketedShardsToSweep}.
     * Every command of a step is sent before any answer is awaited.
     */
    private List<Integer> shardsHoldingLeases() throws Exception {
        int shards = protocol.shards();
        List<Integer> maybe = new ArrayList<>(shards);
        if (protocol.buckets() != null) {
            return bucketedShardsToSweep(shards);
        } else if (cluster) {
            for (int shard = 0; shard < shards; shard++) {
                maybe.add(shard);
            }
        } else {
            List<CompletableFuture<Long>> groups = new ArrayList<>();
            for (int from = 0; from < shards; from += KEYS_PER_CHECK) {
                String[] keys = new String[Math.min(KEYS_PER_CHECK, shards - from)];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = protocol.keys(from + i).inflight();
                }
                groups.add(redis.exists(keys).toCompletableFuture());
            }
            List<Integer> all = new ArrayList<>();
            for (int g = 0; g < groups.size(); g++) {
                long present = groups.get(g).get(30, TimeUnit.SECONDS);
                int from = g * KEYS_PER_CHECK;
                int to = Math.min(shards, from + KEYS_PER_CHECK);
                for (int shard = from; present > 0 && shard < to; shard++) {
                    (present == to - from ? all : maybe).add(shard);
                }
            }
            if (maybe.isEmpty()) {
                return all;
            }
            maybe.addAll(0, all);
        }
        List<CompletableFuture<Long>> held = new ArrayList<>(maybe.size());
        for (int shard : maybe) {
            held.add(redis.zcard(protocol.keys(shard).inflight()).toCompletableFuture());
        }
        List<Integer> holding = new ArrayList<>();
        for (int i = 0; i < maybe.size(); i++) {
            try {
                if (held.get(i).get(30, TimeUnit.SECONDS) > 0) {
                    holding.add(maybe.get(i));
                }
            } catch (ExecutionException e) {
                if (!ShardFaults.isDataFault(e.getCause() != null ? e.getCause() : e)) {
                    throw e;
                }
                // one shard with a key of the wrong type must not strand the other shards' leases: go on
                LOG.debug("reclaim: shard {}'s in-flight set: {}", maybe.get(i), e.getCause());
            }
        }
        return holding;
    }

    /**
     * Protocol 3: the shards holding a lease, a coarse minute (the sweep also splits minutes into due windows) or
     * protocol 2's leases (upgraded in place), per group of shards one {@code EXISTS} over those keys; every shard of a
     * group where any exists is swept, as the script answers an idle shard with a few reads. On a Cluster a group is
     * one shard, whose keys share a slot.
     */
    private List<Integer> bucketedShardsToSweep(int shards) throws Exception {
        int perGroup = cluster ? 1 : KEYS_PER_CHECK / 3;
        List<CompletableFuture<Long>> groups = new ArrayList<>();
        for (int from = 0; from < shards; from += perGroup) {
            int to = Math.min(shards, from + perGroup);
            String[] keys = new String[3 * (to - from)];
            for (int shard = from; shard < to; shard++) {
                String prefix = BucketLayout.prefix(protocol.queue(), shard);
                keys[3 * (shard - from)] = prefix + BucketLayout.LEASE;
                keys[3 * (shard - from) + 1] = prefix + BucketLayout.COARSE_INDEX;
                // protocol 2's leases on a shard upgraded in place expire through the same sweep
                keys[3 * (shard - from) + 2] = prefix + BucketLayout.LEGACY;
            }
            groups.add(redis.exists(keys).toCompletableFuture());
        }
        List<Integer> sweep = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            if (groups.get(g).get(30, TimeUnit.SECONDS) > 0) {
                for (int shard = g * perGroup; shard < Math.min(shards, (g + 1) * perGroup); shard++) {
                    sweep.add(shard);
                }
            }
        }
        return sweep;
    }
}
