package io.delayq.worker.dispatch;

import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.testing.LocalRedisCluster;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A claim that hangs (its Cluster primary frozen or failing over; here SIGSTOP, the worker's Redis
 * time-out is 5 s) must not hold the handler slots the shards of the healthy primaries need: their
 * tasks keep running on time. The chaos suite's failover showed every shard ~5 s late before.
 */
class StuckClaimTest {
    private static final int SHARDS = 6;
    private static LocalRedisCluster cluster;

    private final String queue = "stuck-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Worker> workers = new ArrayList<>();
    /** Task id → the worker's failed Redis calls when its handler started (a hung claim fails at its 5 s time-out). */
    private final Map<String, Long> failuresSeen = new ConcurrentHashMap<>();
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private DelayQueueClient client;
    private Set<Integer> frozenShards;
    private LocalRedisServer frozenNode;

    @BeforeAll
    static void startCluster() {
        // two primaries: with one frozen, the other alone is no majority to mark it failed, so the cluster stays up
        cluster = LocalRedisCluster.start(2);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void openQueue() {
        client = DelayQueueClient.builder().redis(cluster.url()).queue(queue).shards(SHARDS).timeout(Duration.ofSeconds(5)).build();
        frozenShards = new TreeSet<>();
        for (int s = 0; s < SHARDS; s++) {
            if (cluster.nodeOfSlot(SlotHash.getSlot(new ShardKeys(queue, s).due(0))) == 0) {
                frozenShards.add(s);
            }
        }
        assumeThat(frozenShards).as("shards on both nodes").isNotEmpty().hasSizeLessThan(SHARDS);
        frozenNode = cluster.nodes().get(0);
    }

    @AfterEach
    void close() {
        if (frozenNode != null) {
            frozenNode.resume();
        }
        workers.forEach(Worker::close);
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theHealthyShardsKeepTheirScheduleWhileAClaimHangs() {
        // as many slots as frozen shards: their hanging claims could hold every slot between them
        Worker[] started = new Worker[1];
        Worker w = start(frozenShards.size(), task -> failuresSeen.put(task.id(), redisFailures(started[0])));
        started[0] = w;
        awaitClaiming(w);

        frozenNode.pause();
        long now = System.currentTimeMillis();
        List<TaskSpec> healthy = new ArrayList<>();
        for (int i = 0; healthy.size() < 10; i++) {
            String id = "h-" + i;
            if (!frozenShards.contains(Sharding.shardOf(id, SHARDS))) {
                // due one after another over the 3 s after the freeze, well inside the 5 s time-out
                healthy.add(TaskSpec.of(id).at(Instant.ofEpochMilli(now + 300L * (healthy.size() + 1))));
            }
        }
        client.enqueueAll(healthy);

        // (before the fix each hanging claim held the slots until its 5 s time-out, then hung again: the
        // healthy tasks could only run once a hung call had failed)
        await().atMost(Duration.ofSeconds(15)).until(() -> failuresSeen.size() == healthy.size());
        assertThat(failuresSeen).as("failed Redis calls when each healthy task started: all ran while the claims on the frozen primary still hung")
                .allSatisfy((id, failures) -> assertThat(failures).as(id).isZero());
    }

    @Test
    void aClaimAnsweredAfterItsSlotsWereGivenBackStillRunsItsTasksAndTheWorkerKeepsItsConcurrency() {
        List<TaskSpec> onFrozen = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; onFrozen.size() < 6; i++) {
            String id = "f-" + i;
            if (frozenShards.contains(Sharding.shardOf(id, SHARDS))) {
                // due while the node is frozen: the claims that hang find them when it wakes
                onFrozen.add(TaskSpec.of(id).at(Instant.ofEpochMilli(now + 1500)));
            }
        }
        client.enqueueAll(onFrozen);
        CountDownLatch backlogHandlers = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        Worker w = start(2, task -> {
            mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                if (task.id().startsWith("b-")) {
                    backlogHandlers.await(20, TimeUnit.SECONDS);
                }
                handled.add(task.id());
            } finally {
                running.decrementAndGet();
            }
        });
        awaitClaiming(w);

        String probe = null;
        for (int i = 0; probe == null; i++) {
            if (!frozenShards.contains(Sharding.shardOf("p-" + i, SHARDS))) {
                probe = "p-" + i;
            }
        }
        String healthyProbe = probe;
        frozenNode.pause();
        // the fault lasts until a task of a healthy shard, due now, has run: the claims that hang gave their
        // slots back (a claim holds them CLAIM_HOLD_MILLIS) and none has reached the 5 s time-out yet, so
        // they are answered late, after their slots went to another shard
        client.enqueue(TaskSpec.of(healthyProbe));
        await().atMost(Duration.ofSeconds(4)).until(() -> handled.contains(healthyProbe));
        frozenNode.resume();
        assertThat(redisFailures(w)).as("failed Redis calls: the hung claims were answered, late, not timed out").isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> onFrozen.stream().allMatch(t -> handled.contains(t.id())));

        // the late answers took their slots again: with both handlers busy on the backlog, no third handler runs
        // (tasks the claim buffer holds beyond the slots wait for a thread; the buffer is sized by the measured rate)
        List<TaskSpec> backlog = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            backlog.add(TaskSpec.of("b-" + i));
        }
        client.enqueueAll(backlog);
        await().atMost(Duration.ofSeconds(5)).until(() -> running.get() == 2);
        await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(3)).untilAsserted(() ->
                assertThat(mostRunning.get()).as("handlers running at once, concurrency 2").isEqualTo(2));
        assertThat(client.stats().inflight()).as("tasks claimed while both handlers are busy").isGreaterThanOrEqualTo(2);
        backlogHandlers.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> backlog.stream().allMatch(t -> handled.contains(t.id())));
    }

    private Worker start(int concurrency, io.delayq.handler.TaskHandler handler) {
        Map<String, String> env = RunningWorkers.env(cluster.url(), queue, SHARDS);
        env.put("DELAYQ_CONCURRENCY", String.valueOf(concurrency));
        env.put("DELAYQ_POLL_INTERVAL", "100ms");
        env.put("DELAYQ_LEASE", "30s");
        Worker w = Worker.start(WorkerConfig.fromEnv(env), redis -> new HandlerDelivery(handler));
        workers.add(w);
        return w;
    }

    private static long redisFailures(Worker w) {
        return (long) w.registry().find("delayq.redis.failures").functionCounter().count();
    }

    /** The worker has claimed on every shard at least once (so its claims now go out every poll interval). */
    private static void awaitClaiming(Worker w) {
        await().atMost(Duration.ofSeconds(10)).until(() -> RunningWorkers.claimBatches(w).count() >= SHARDS);
    }
}
