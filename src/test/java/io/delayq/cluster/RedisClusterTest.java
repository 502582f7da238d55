package io.delayq.cluster;

import io.delayq.backlog.QueueStats;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetter;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.Reclaimed;
import io.delayq.lease.RetryResult;
import io.delayq.queue.ShardCountMismatchException;
import io.delayq.shard.ShardKeys;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.Priority;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisClusterExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Every client and worker operation over 16 shards on a real three-node Redis Cluster, with no CROSSSLOT error. */
class RedisClusterTest {
    private static final int SHARDS = 16;
    private static final Duration LEASE = Duration.ofMinutes(5);

    @RegisterExtension
    static RedisClusterExtension redis = new RedisClusterExtension(3);

    @Test
    void theClusterEnforcesSlotsAndTheShardsSpreadOverEveryNode() {
        assertThat(redis.endpoint().isCluster()).isTrue();
        // keys of two shards in one script are refused: this cluster would catch a script that crossed slots
        assertThat(SlotHash.getSlot("{orders:0}")).isNotEqualTo(SlotHash.getSlot("{orders:1}"));
        assertThatThrownBy(() -> get(redis.endpoint().commands().<Long>eval("return 1", ScriptOutputType.INTEGER,
                "dq:{orders:0}:due", "dq:{orders:1}:due")))
                .isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("CROSSSLOT");
        Set<Integer> nodes = new HashSet<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            nodes.add(redis.cluster().nodeOfSlot(SlotHash.getSlot(new ShardKeys("orders", shard).due(0))));
        }
        assertThat(nodes).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void everyClientOperation() {
        try (TestQueue q = TestQueue.on(redis.endpoint(), "client-ops", SHARDS)) {
            DelayQueueClient c = q.client();
            Instant t1 = Instant.parse("2100-01-01T00:00:00Z");
            List<TaskSpec> batch = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                batch.add(TaskSpec.of("order-" + i).at(t1).payload("p" + i).priority(i % 3));
            }
            assertThat(c.enqueueAll(batch)).allSatisfy(r -> assertThat(r.added()).isTrue());
            assertThat(c.enqueue(TaskSpec.of("single").after(Duration.ofMinutes(1))).added()).isTrue();
            assertThat(sync(c.async().enqueue(TaskSpec.of("async")))).extracting(EnqueueResult::status).isEqualTo(EnqueueResult.Status.ADDED);
            assertThat(c.enqueue(TaskSpec.of("order-1")).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(c.enqueue(TaskSpec.of("order-2").at(t1.plusSeconds(1)).payload("new"), DuplicatePolicy.REPLACE).status())
                    .isEqualTo(EnqueueResult.Status.REPLACED);
            assertThat(c.enqueue(TaskSpec.of("order-3").at(t1.minusSeconds(1)), DuplicatePolicy.KEEP_EARLIER).status())
                    .isEqualTo(EnqueueResult.Status.EARLIER);

            TaskInfo info = c.inspect("order-2");
            assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("new");
            assertThat(c.reschedule("order-4", Duration.ofHours(1)).status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);
            assertThat(c.reschedule("order-5", t1.plusSeconds(5)).dueAt()).isEqualTo(t1.plusSeconds(5).toEpochMilli());
            assertThat(c.cancel("order-6")).isEqualTo(CancelResult.CANCELLED);
            assertThat(c.cancel("nobody")).isEqualTo(CancelResult.UNKNOWN);

            QueueStats stats = c.stats();
            assertThat(stats.shards()).hasSize(SHARDS);
            assertThat(stats.scheduled() + stats.due()).isEqualTo(401);
            assertThat(stats.shards()).filteredOn(s -> s.scheduled() > 0).hasSizeGreaterThan(8);

            for (int shard = 0; shard < SHARDS; shard++) {
                assertThat(c.deadLetters(shard, 0, 10).total()).isZero();
            }
            assertThat(c.replayDead(List.of("order-7", "order-8"))).isZero();
            assertThat(c.purgeDead(List.of("order-7", "order-8"))).isZero();
            // every node holds some of the queue
            for (int node = 0; node < 3; node++) {
                assertThat(get(redis.cluster().node(node).commands().dbsize())).as("keys on node %d", node).isPositive();
            }
        }
    }

    @Test
    void everyWorkerOperation() {
        try (TestQueue q = TestQueue.on(redis.endpoint(), "worker-ops", SHARDS)) {
            List<TaskSpec> batch = new ArrayList<>();
            for (int i = 0; i < 320; i++) {
                batch.add(TaskSpec.of("task-" + i).payload("p" + i).priority(i % 7 == 0 ? Priority.HIGH : Priority.NORMAL));
            }
            q.client().enqueueAll(batch);
            Map<String, ClaimedTask> claimed = new HashMap<>();
            for (int shard = 0; shard < SHARDS; shard++) {
                ClaimBatch b = sync(q.protocol().claim(shard, 100, LEASE, RateLimit.NONE));
                assertThat(b.tasks()).allSatisfy(t -> assertThat(q.shardOf(t.id())).isEqualTo(t.shard()));
                b.tasks().forEach(t -> claimed.put(t.id(), t));
            }
            assertThat(claimed).hasSize(320);
            assertThat(q.client().stats().inflight()).isEqualTo(320);

            // rate-limited claim, extend, ack, retry and dead-letter on every shard
            int dead = 0;
            for (int shard = 0; shard < SHARDS; shard++) {
                int s = shard;
                List<ClaimedTask> mine = claimed.values().stream().filter(t -> t.shard() == s).toList();
                assertThat(sync(q.protocol().claim(shard, 10, LEASE, new RateLimit(100, 10))).tasks()).isEmpty();
                List<Long> renewed = sync(q.protocol().extend(shard, mine, Duration.ofMinutes(10)));
                assertThat(renewed).allSatisfy(token -> assertThat(token).isPositive());
                List<ClaimedTask> current = IntStream.range(0, mine.size()).mapToObj(i -> mine.get(i).withToken(renewed.get(i))).toList();
                List<ClaimedTask> toAck = current.subList(0, current.size() / 2);
                assertThat(sync(q.protocol().ack(shard, toAck))).containsOnly(true);
                List<ClaimedTask> rest = current.subList(current.size() / 2, current.size());
                for (int i = 0; i < rest.size(); i++) {
                    RetryResult r = i % 2 == 0
                            ? sync(q.protocol().retry(rest.get(i), Duration.ZERO, "again", 5, false, DeadLetterPolicy.DEFAULT))
                            : sync(q.protocol().retry(rest.get(i), Duration.ZERO, "fatal", 5, true, DeadLetterPolicy.DEFAULT));
                    assertThat(r.status()).isEqualTo(i % 2 == 0 ? RetryResult.Status.RETRIED : RetryResult.Status.DEAD);
                    dead += i % 2;
                }
            }
            QueueStats stats = q.client().stats();
            assertThat(stats.dead()).isEqualTo(dead);
            assertThat(stats.inflight()).isZero();

            // reclaim after a short lease, on every shard
            List<ClaimedTask> leased = new ArrayList<>();
            for (int shard = 0; shard < SHARDS; shard++) {
                leased.addAll(sync(q.protocol().claim(shard, 100, Duration.ofMillis(100), RateLimit.NONE)).tasks());
            }
            long requeuedBefore = leased.size();
            assertThat(requeuedBefore).isEqualTo(stats.due());
            long lastToken = leased.stream().mapToLong(ClaimedTask::token).max().orElseThrow();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> TestQueue.serverNow(redis.cluster().node(0).commands()) > lastToken + 5);
            long requeued = 0;
            for (int shard = 0; shard < SHARDS; shard++) {
                Reclaimed r = sync(q.protocol().reclaim(shard, 100, 5, DeadLetterPolicy.DEFAULT));
                requeued += r.requeued();
            }
            assertThat(requeued).isEqualTo(requeuedBefore);
            for (int shard = 0; shard < SHARDS; shard++) {
                assertThat(sync(q.protocol().claim(shard, 100, LEASE, RateLimit.NONE)).tasks())
                        .allSatisfy(t -> assertThat(t.attempt()).isEqualTo(3));
            }

            // dead letters: list, replay, purge on every shard
            List<String> deadIds = new ArrayList<>();
            for (int shard = 0; shard < SHARDS; shard++) {
                deadIds.addAll(q.client().deadLetters(shard, 0, 1000).entries().stream().map(DeadLetter::id).toList());
            }
            assertThat(deadIds).hasSize(dead);
            List<String> replay = deadIds.subList(0, deadIds.size() / 2);
            assertThat(q.client().replayDead(replay)).isEqualTo(replay.size());
            assertThat(q.client().purgeDead(deadIds)).isEqualTo(deadIds.size() - replay.size());
            assertThat(q.client().stats().dead()).isZero();
            assertThat(q.client().stats().due()).isEqualTo(replay.size());
        }
    }

    @Test
    void metaIsCheckedOnTheClusterToo() {
        try (TestQueue q = TestQueue.on(redis.endpoint(), "meta-check", SHARDS)) {
            assertThat(q.client().stats().shards()).hasSize(SHARDS);
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.cluster().url()).queue("meta-check").shards(8).build())
                    .isInstanceOf(ShardCountMismatchException.class);
        }
    }

    @Test
    void scriptsReloadAfterAFlushOnEveryNode() {
        try (TestQueue q = TestQueue.on(redis.endpoint(), "reload", SHARDS)) {
            q.client().enqueue(TaskSpec.of("a"));
            for (int node = 0; node < 3; node++) {
                get(redis.cluster().node(node).commands().scriptFlush());
            }
            for (int i = 0; i < 40; i++) {
                assertThat(q.client().inspect("id-" + i).state()).isEqualTo(TaskInfo.State.UNKNOWN);
            }
            assertThat(q.client().inspect("a").state()).isEqualTo(TaskInfo.State.SCHEDULED);
        }
    }
}
