package io.delayq.worker.presence;

import io.delayq.presence.PresenceRegistry;
import io.delayq.presence.WorkerPresence;
import io.delayq.shard.ShardRange;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Real workers on a real Redis write the presence registry: range, version, held leases; a clean stop leaves it, a dead entry expires. */
class PresenceHeartbeatTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "presence";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private PresenceRegistry registry() {
        return new PresenceRegistry(queue.client().redis(), Q, Duration.ofSeconds(5));
    }

    @Test
    void eachWorkerListsItsRangeVersionAndTheLeasesItHolds() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Map<String, String> low = RunningWorkers.env(redis.url(), Q, 4);
        low.put("DELAYQ_SHARD_FROM", "0");
        low.put("DELAYQ_SHARD_TO", "1");
        Map<String, String> high = RunningWorkers.env(redis.url(), Q, 4);
        high.put("DELAYQ_SHARD_FROM", "2");
        high.put("DELAYQ_SHARD_TO", "3");
        Worker a = workers.startHandler(low, task -> release.await(20, TimeUnit.SECONDS));
        Worker b = workers.startHandler(high, task -> release.await(20, TimeUnit.SECONDS));

        String id = "order-held";
        int shard = queue.shardOf(id);
        Worker holder = shard <= 1 ? a : b;
        queue.client().enqueue(TaskSpec.of(id).after(Duration.ZERO));
        // the task is claimed, and the next heartbeat (every 5 s) reports it with the token the in-flight set holds
        await().atMost(Duration.ofSeconds(15)).until(() -> registry().held(List.of(holder.presenceId())).getOrDefault(holder.presenceId(), List.of())
                .stream().anyMatch(h -> h.taskId().equals(id)));
        try {
            long now = queue.serverNow();
            List<WorkerPresence> alive = registry().alive(now);
            assertThat(alive).extracting(WorkerPresence::id).containsExactly(a.presenceId(), b.presenceId());
            assertThat(alive.get(0).shards()).isEqualTo(new ShardRange(0, 1));
            assertThat(alive.get(1).shards()).isEqualTo(new ShardRange(2, 3));
            assertThat(alive.get(0).version()).isEqualTo(io.delayq.ProductVersion.version()).isNotBlank();
            assertThat(alive.get(0).ttlMs()).isEqualTo(PresenceHeartbeat.INTERVAL.multipliedBy(3).toMillis());
            assertThat(alive.get(0).heartbeatAt()).isBetween(alive.get(0).startedAt(), now);
            // A lease renewal moves the in-flight score between two heartbeats; the heartbeat after it reports the new one,
            // so the two agree from a heartbeat until the next renewal.
            await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
                PresenceRegistry.HeldLease lease = registry().held(List.of(holder.presenceId())).get(holder.presenceId()).stream()
                        .filter(h -> h.taskId().equals(id)).findFirst().orElseThrow();
                Double score = TestQueue.get(queue.redis().zscore(queue.keys(shard).inflight(), id));
                assertThat(score).isNotNull();
                assertThat(lease.token()).as("the reported token is the in-flight score: this claim, not an earlier one")
                        .isEqualTo(score.longValue());
            });
        } finally {
            release.countDown();
        }

        b.close();
        assertThat(registry().alive(queue.serverNow())).as("a clean stop leaves the registry at once").extracting(WorkerPresence::id)
                .containsExactly(a.presenceId());
    }

    @Test
    void anEntryWhoseTtlRanOutIsNotShownAndTheNextBeatRemovesIt() throws Exception {
        PresenceRegistry r = registry();
        r.beat("killed-9", new ShardRange(0, 3), "0.0.9", "node-a", Duration.ofMillis(1), 0, List.of());
        long now = queue.serverNow();
        await().atMost(Duration.ofSeconds(5)).until(() -> queue.serverNow() > now + 2);
        assertThat(r.alive(queue.serverNow())).isEmpty();
        r.beat("alive-1", new ShardRange(0, 3), "0.0.9", "node-b", Duration.ofSeconds(15), 0, List.of());
        assertThat(TestQueue.get(queue.redis().hkeys(PresenceRegistry.key(Q)))).containsExactly("alive-1");
        assertThat(r.alive(queue.serverNow())).extracting(WorkerPresence::host).containsExactly("node-b");
    }

    @Test
    void theHeartbeatReportsTheDeliveriesTheWorkerSettledWhateverTheirOutcome() throws Exception {
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 4), task -> {
            if (task.id().startsWith("fails-")) {
                throw new IllegalStateException("refused on purpose");
            }
        });
        await().atMost(Duration.ofSeconds(15)).until(() -> registry().alive(queue.serverNow()).size() == 1);
        assertThat(registry().alive(queue.serverNow()).get(0).delivered()).as("nothing settled yet").isZero();
        for (int i = 0; i < 7; i++) {
            queue.client().enqueue(TaskSpec.of("ok-" + i).after(Duration.ZERO));
        }
        for (int i = 0; i < 3; i++) {
            queue.client().enqueue(TaskSpec.of("fails-" + i).after(Duration.ZERO).maxAttempts(1));
        }
        // 7 acked and 3 dead-lettered, all counted at the next heartbeat (every 5 s)
        await().atMost(Duration.ofSeconds(20)).until(() -> registry().alive(queue.serverNow()).stream()
                .filter(p -> p.id().equals(w.presenceId())).anyMatch(p -> p.delivered() == 10));
    }

    @Test
    void anEntryWithoutADeliveredCountReadsAsUnreported() {
        registry().beat("older-worker", new ShardRange(0, 3), "0.2.0", "node-c", Duration.ofMinutes(1), 0, List.of());
        assertThat(registry().alive(queue.serverNow())).extracting(WorkerPresence::delivered).containsExactly(-1L);
    }
}
