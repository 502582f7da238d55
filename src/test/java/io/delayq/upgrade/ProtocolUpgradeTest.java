package io.delayq.upgrade;

import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.serverNow;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue of protocol 2 upgraded in place to protocol 3 (docs/protocol3.md, "Upgrade in place"): its waiting tasks,
 * dead letters and bare ZADDs are adopted with their records, levels, attempts and errors; the tasks protocol 2 held in
 * flight finish through protocol 2's scripts; a producer that has not noticed the switch still gets its tasks
 * delivered; every task is handed out once, and nothing of protocol 2 is left once the last one in flight finished.
 */
class ProtocolUpgradeTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "upgrading";
    private static final int SHARDS = 2;
    private static final DeadLetterPolicy KEEP_ALL = new DeadLetterPolicy(0, Duration.ZERO);
    private RedisEndpoint endpoint;

    @BeforeEach
    void open() {
        endpoint = RedisEndpoint.connect(redis.url());
    }

    @AfterEach
    void close() {
        endpoint.close();
    }

    private static DelayQueueClient client() {
        return DelayQueueClient.builder().redis(redis.url()).queue(Q).shards(SHARDS).build();
    }

    private static List<ClaimedTask> claimAll(DelayQueueClient client, int shard) {
        return sync(client.protocol().claim(shard, 1000, Duration.ofMinutes(5), RateLimit.NONE)).tasks();
    }

    @Test
    void everyTaskOfProtocol2IsAdoptedOrFinishesThereAndIsHandedOutOnce() {
        try (DelayQueueClient before = client(); DelayQueueClient stale = client()) {
            assertThat(before.protocol().buckets()).as("a queue of protocol 2").isNull();
            long now = serverNow(endpoint.commands());
            Map<String, Long> dueNow = new HashMap<>();
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                specs.add(TaskSpec.of("now-" + i).at(Instant.ofEpochMilli(now - 1000 - i)).priority(i % 3).payload("p" + i));
                dueNow.put("now-" + i, now - 1000 - i);
            }
            for (int i = 0; i < 10; i++) {
                specs.add(TaskSpec.of("later-" + i).after(Duration.ofHours(1)).payload("l" + i));
                specs.add(TaskSpec.of("far-" + i).after(Duration.ofDays(2)).priority(2));
            }
            before.enqueueAll(specs);
            // a seed producer's bare ZADD
            get(endpoint.commands().zadd(before.protocol().keys(before.protocol().shardOf("bare")).due(0), now - 5_000, "bare"));
            dueNow.put("bare", now - 5_000);
            // in flight on protocol 2: one retried (attempts 1, an error), one dead-lettered, the rest left running
            List<ClaimedTask> running = new ArrayList<>();
            for (int shard = 0; shard < SHARDS; shard++) {
                running.addAll(sync(before.protocol().claim(shard, 3, Duration.ofMinutes(5), RateLimit.NONE)).tasks());
            }
            assertThat(running).hasSize(6);
            running.forEach(t -> dueNow.remove(t.id()));
            ClaimedTask retried = running.remove(0);
            sync(before.protocol().retry(retried, Duration.ZERO, "gateway timed out", 5, false, KEEP_ALL));
            dueNow.put(retried.id(), -1L);
            ClaimedTask poisoned = running.remove(0);
            sync(before.protocol().retry(poisoned, Duration.ZERO, "bad input", 5, true, KEEP_ALL));
            long waitingBefore = before.stats().scheduled() + before.stats().due();

            ProtocolUpgrade.Result first = new ProtocolUpgrade(before.protocol(), Duration.ofSeconds(10), Duration.ofMillis(300)).run();
            assertThat(get(endpoint.commands().hget("dq:{" + Q + "}:meta", "protocol"))).isEqualTo(String.valueOf(QueueProtocol.BUCKETED));
            assertThat(before.protocol().buckets()).as("the upgrading process speaks 3 at once").isNotNull();
            assertThat(first.waitingAdopted()).isEqualTo(waitingBefore);
            assertThat(first.deadAdopted()).isEqualTo(1);
            assertThat(first.stillInFlight()).as("protocol 2's tasks in flight finish there").isEqualTo(4);
            assertThat(before.stats().scheduled() + before.stats().due()).isEqualTo(waitingBefore);
            assertThat(before.stats().inflight()).isEqualTo(4);

            TaskInfo again = before.inspect(retried.id());
            assertThat(again.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(again.attempts()).isEqualTo(1);
            assertThat(again.lastError()).isEqualTo("gateway timed out");
            TaskInfo dead = before.inspect(poisoned.id());
            assertThat(dead.state()).isEqualTo(TaskInfo.State.DEAD);
            assertThat(dead.lastError()).isEqualTo("bad input");
            assertThat(before.inspect("bare").rawRecord()).isNull();
            assertThat(before.inspect("far-3").priority()).isEqualTo(2);
            assertThat(before.inspect(running.get(0).id()).state()).isEqualTo(TaskInfo.State.IN_FLIGHT);

            // a producer that has not read the meta since still writes protocol 2's keys: adopted by the next claim
            assertThat(stale.protocol().buckets()).isNull();
            stale.enqueue(TaskSpec.of("from-stale").payload("s").priority(1));
            dueNow.put("from-stale", -1L);

            // the tasks protocol 2 handed out finish through its scripts
            assertThat(sync(before.protocol().ack(running.get(0).shard(), List.of(running.get(0))))).containsExactly(true);
            for (ClaimedTask t : running.subList(1, running.size())) {
                assertThat(sync(before.protocol().ack(t.shard(), List.of(t)))).containsExactly(true);
            }

            Map<String, Integer> handedOut = new HashMap<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                for (int shard = 0; shard < SHARDS; shard++) {
                    List<ClaimedTask> got = claimAll(before, shard);
                    for (ClaimedTask t : got) {
                        handedOut.merge(t.id(), 1, Integer::sum);
                        if (t.id().equals(retried.id())) {
                            assertThat(t.attempt()).as("its attempts kept").isEqualTo(2);
                        }
                        if (dueNow.getOrDefault(t.id(), -1L) > 0) {
                            assertThat(t.dueAt()).isEqualTo(dueNow.get(t.id()));
                        }
                    }
                    if (!got.isEmpty()) {
                        sync(before.protocol().ack(shard, got));
                    }
                }
                return handedOut.keySet().containsAll(dueNow.keySet());
            });
            assertThat(handedOut).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
            assertThat(handedOut.keySet()).containsExactlyInAnyOrderElementsOf(dueNow.keySet());

            ProtocolUpgrade.Result second = new ProtocolUpgrade(before.protocol(), Duration.ofSeconds(10), Duration.ofSeconds(5)).run();
            assertThat(second.done()).isTrue();
            for (int shard = 0; shard < SHARDS; shard++) {
                String prefix = "dq:{" + Q + ":" + shard + "}:";
                assertThat(get(endpoint.commands().keys(prefix + "*")))
                        .as("nothing of protocol 2 is left on shard %d", shard)
                        .noneMatch(k -> k.equals(prefix + "due") || k.startsWith(prefix + "due:") || k.equals(prefix + "inflight")
                                || k.startsWith(prefix + "tasks:") || k.equals(prefix + "attempts") || k.equals(prefix + "errors")
                                || k.equals(prefix + "legacy"));
            }
            assertThat(before.stats().scheduled()).as("the tasks due later wait on").isEqualTo(20);
            assertThat(before.stats().dead()).isEqualTo(1);
        }
    }

    @Test
    void anUpgradeIsRefusedWhileAReshardRunsAndChangesNothing() {
        try (DelayQueueClient client = client()) {
            client.enqueue(TaskSpec.of("waits").after(Duration.ofHours(1)));
            sync(new io.delayq.reshard.ReshardScripts(client.protocol().scope()).reshardBegin(4));
            org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                            new ProtocolUpgrade(client.protocol(), Duration.ofSeconds(10), Duration.ofMillis(300)).run())
                    .isInstanceOf(io.delayq.InvalidInputException.class)
                    .hasMessageContaining("queue '" + Q + "' is being resharded; upgrade it once the reshard is done")
                    .hasMessageContaining("(2 4 shards)");
            assertThat(get(endpoint.commands().hget("dq:{" + Q + "}:meta", "protocol"))).isEqualTo("2");
            assertThat(get(endpoint.commands().hexists("dq:{" + Q + "}:meta", ProtocolUpgrade.UPGRADED_AT))).isFalse();
        }
    }

    /**
     * A grow that begins while protocol 2 still holds tasks in flight on a shard upgraded in place: the mover counts
     * them as in flight elsewhere and waits; once acked, the grow ends with every task on its shard of the new layout.
     */
    @Test
    void aGrowDuringAnUpgradeWaitsForTheTasksProtocol2HoldsInFlight() throws Exception {
        try (DelayQueueClient client = client()) {
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                specs.add(TaskSpec.of("later-" + i).after(Duration.ofHours(1)).payload("l" + i));
            }
            String runningId = java.util.stream.IntStream.range(0, 1000).mapToObj(n -> "run-" + n)
                    .filter(id -> io.delayq.shard.Sharding.shardOf(id, SHARDS) != io.delayq.shard.Sharding.shardOf(id, 4)).findFirst().orElseThrow();
            specs.add(TaskSpec.of(runningId));
            client.enqueueAll(specs);
            int shard = client.protocol().shardOf(runningId);
            ClaimedTask running = claimAll(client, shard).stream().filter(t -> t.id().equals(runningId)).findFirst().orElseThrow();

            ProtocolUpgrade.Result upgraded = new ProtocolUpgrade(client.protocol(), Duration.ofSeconds(10), Duration.ofMillis(100)).run();
            assertThat(upgraded.stillInFlight()).isEqualTo(1);

            java.util.concurrent.atomic.AtomicLong waitingFor = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.CompletableFuture<io.delayq.reshard.Mover.Result> grow = java.util.concurrent.CompletableFuture.supplyAsync(() ->
                    new io.delayq.reshard.Mover(io.delayq.reshard.Mover.Params.of(client.protocol(), 4, p -> {
                        if (p.phase().equals("waiting for in-flight tasks")) {
                            waitingFor.set(p.inFlightElsewhere());
                        }
                    })).run());
            await().atMost(Duration.ofSeconds(10)).until(() -> waitingFor.get() == 1);
            assertThat(grow).isNotDone();
            assertThat(sync(client.protocol().ack(shard, List.of(running)))).containsExactly(true);
            assertThat(grow.get(30, java.util.concurrent.TimeUnit.SECONDS).to()).isEqualTo(4);
            for (int i = 0; i < 60; i++) {
                TaskInfo info = client.inspect("later-" + i);
                assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
                assertThat(info.shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("later-" + i, 4));
                assertThat(info.rawRecord()).endsWith("l" + i);
            }
            assertThat(client.inspect(runningId).state()).isEqualTo(TaskInfo.State.UNKNOWN);
        }
    }

    /**
     * A producer that has not read the switch writes grouped tasks in protocol 2's keys after the upgrade: a call by id,
     * the upgrade run again and the claims adopt them into their groups' buckets, so they fire in their groups, and the
     * group's turn goes with its last task.
     */
    @Test
    void groupedTasksAStaleProducerWritesAfterTheSwitchAreAdoptedIntoTheirGroupsAndFire() {
        try (DelayQueueClient upgrading = client(); DelayQueueClient stale = client()) {
            new ProtocolUpgrade(upgrading.protocol(), Duration.ofSeconds(10), Duration.ofMillis(100)).run();
            assertThat(stale.protocol().buckets()).as("has not read the switch").isNull();
            List<TaskSpec> grouped = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                grouped.add(TaskSpec.of("g-" + i).group(i % 2 == 0 ? "tenant-a" : "tenant-b").payload("g" + i));
            }
            stale.enqueueAll(grouped);
            String groups = stale.protocol().keys(stale.protocol().shardOf("g-0")).groups();
            assertThat(get(endpoint.commands().zcard(groups))).as("protocol 2's group turns").isPositive();

            TaskInfo byId = upgrading.inspect("g-0");
            assertThat(byId.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(byId.rawRecord()).contains("\"group\":\"tenant-a\"");
            assertThat(new ProtocolUpgrade(upgrading.protocol(), Duration.ofSeconds(10), Duration.ofMillis(100)).run().done()).isTrue();

            Map<String, Integer> handedOut = new HashMap<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                for (int shard = 0; shard < SHARDS; shard++) {
                    for (ClaimedTask t : claimAll(upgrading, shard)) {
                        handedOut.merge(t.id(), 1, Integer::sum);
                        String group = Integer.parseInt(t.id().substring(2)) % 2 == 0 ? "tenant-a" : "tenant-b";
                        assertThat(t.flight()).as("claimed from its group's bucket").contains("#" + group + ":");
                    }
                }
                return handedOut.size() == 20;
            });
            assertThat(handedOut.values()).containsOnly(1);
            for (int shard = 0; shard < SHARDS; shard++) {
                assertThat(get(endpoint.commands().exists(upgrading.protocol().keys(shard).groups(), upgrading.protocol().keys(shard).groupedDue())))
                        .as("nothing of protocol 2's groups left on shard " + shard).isZero();
            }
        }
    }
}
