package io.delayq.worker.upgrade;

import io.delayq.client.DelayQueueClient;
import io.delayq.queue.QueueProtocol;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.upgrade.ProtocolUpgrade;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A queue upgraded in place to protocol 3 while a worker runs on it and producers go on (docs/protocol3.md, "Upgrade
 * in place"): the worker switches by itself, a producer that never notices the switch keeps writing protocol 2's keys,
 * another writes protocol 3's buckets; every task runs once, none before its due time, a failing one again as its next
 * attempt, and nothing of protocol 2 is left.
 */
class UpgradeUnderLoadTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "upgraded-live";
    private static final int SHARDS = 4;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, SHARDS);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private record Run(String id, int attempt, long dueAt, long ranAt) {
    }

    @Test
    void everyTaskRunsOnceNoneEarlyWhileTheQueueIsUpgradedUnderTheWorker() throws Exception {
        List<Run> runs = new CopyOnWriteArrayList<>();
        Map<String, Integer> failed = new ConcurrentHashMap<>();
        Worker worker = workers.startHandler(RunningWorkers.env(redis.url(), Q, SHARDS), task -> {
            runs.add(new Run(task.id(), task.attempt(), task.dueAt(), System.currentTimeMillis()));
            if (task.id().startsWith("fail-") && failed.merge(task.id(), 1, Integer::sum) == 1) {
                throw new IllegalStateException("first attempt fails");
            }
        });
        List<String> ids = new ArrayList<>();
        DelayQueueClient stale = queue.client();
        int batch = 0;
        try (DelayQueueClient upgrader = DelayQueueClient.builder().redis(redis.url()).queue(Q).shards(SHARDS).build()) {
            for (; batch < 20; batch++) {
                ids.addAll(produce(stale, "a" + batch));
            }
            ProtocolUpgrade.Result result = new ProtocolUpgrade(upgrader.protocol(), Duration.ofSeconds(10), Duration.ofSeconds(20)).run();
            assertThat(get(queue.redis().hget("dq:{" + Q + "}:meta", "protocol"))).isEqualTo(String.valueOf(QueueProtocol.BUCKETED));
            assertThat(result.steps()).isPositive();
            for (; batch < 40; batch++) {
                // the stale producer still speaks protocol 2, the upgrader speaks 3
                ids.addAll(produce(batch % 2 == 0 ? stale : upgrader, "b" + batch));
            }
            int fails = (int) ids.stream().filter(id -> id.startsWith("fail-")).count();
            await().atMost(Duration.ofSeconds(60)).until(() -> runs.size() == ids.size() + fails
                    && RunningWorkers.outcomes(worker, "acked") == ids.size());
            Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
            runs.forEach(r -> attempts.computeIfAbsent(r.id(), id -> new CopyOnWriteArrayList<>()).add(r.attempt()));
            assertThat(attempts.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            attempts.forEach((id, seen) -> assertThat(seen).as(id).isEqualTo(id.startsWith("fail-") ? List.of(1, 2) : List.of(1)));
            assertThat(runs).allSatisfy(r -> assertThat(r.ranAt()).as("%s ran before it was due", r.id()).isGreaterThanOrEqualTo(r.dueAt() - 1));

            ProtocolUpgrade.Result last = new ProtocolUpgrade(upgrader.protocol(), Duration.ofSeconds(10), Duration.ofSeconds(20)).run();
            assertThat(last.done()).isTrue();
        }
        for (int shard = 0; shard < SHARDS; shard++) {
            String prefix = "dq:{" + Q + ":" + shard + "}:";
            assertThat(get(queue.redis().keys(prefix + "*"))).as("nothing of protocol 2 on shard %d", shard)
                    .noneMatch(k -> k.equals(prefix + "due") || k.startsWith(prefix + "due:") || k.equals(prefix + "inflight")
                            || k.startsWith(prefix + "tasks:") || k.equals(prefix + "legacy"));
        }
    }

    /** 25 tasks due within the next 1.5 s, one of which fails its first attempt; answers their ids. */
    private static List<String> produce(DelayQueueClient client, String tag) throws InterruptedException {
        List<TaskSpec> specs = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            String id = (i == 0 ? "fail-" : "t-") + tag + "-" + i;
            specs.add(TaskSpec.of(id).after(Duration.ofMillis((i * 61L) % 1500)).priority(i % 3).payload("p" + i));
            ids.add(id);
        }
        client.enqueueAll(specs);
        Thread.sleep(50); // the producers' pace: 500 tasks a second
        return ids;
    }
}
