package io.delayq.worker.dispatch;

import io.delayq.queue.QueueProtocol;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
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
 * The unchanged worker on a queue recorded as protocol 3 (docs/protocol3.md): every task runs once, a failing one as
 * attempt 1 then 2 after its backoff, none before its due time although claims take whole due windows, and the
 * shard's buckets, leases and id index are empty afterwards.
 */
class BucketedWorkerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    private static final String Q = "bucketed";
    private static final int SHARDS = 4;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, SHARDS);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    /** One handled task: when the handler saw it, local clock (the server runs on this host). */
    private record Run(String id, int attempt, long dueAt, long ranAt) {
    }

    @Test
    void everyTaskRunsOnceNoneEarlyAFailingOneAgainAsItsNextAttemptAndNothingIsLeft() {
        assertThat(get(queue.redis().hget("dq:{" + Q + "}:meta", "protocol"))).isEqualTo(String.valueOf(QueueProtocol.BUCKETED));
        List<Run> runs = new CopyOnWriteArrayList<>();
        Map<String, Integer> failed = new ConcurrentHashMap<>();
        io.delayq.worker.Worker worker = workers.startHandler(RunningWorkers.env(redis.url(), Q, SHARDS), task -> {
            runs.add(new Run(task.id(), task.attempt(), task.dueAt(), System.currentTimeMillis()));
            if (task.id().startsWith("fail-") && failed.merge(task.id(), 1, Integer::sum) == 1) {
                throw new IllegalStateException("first attempt fails");
            }
        });
        List<TaskSpec> specs = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            specs.add(TaskSpec.of("now-" + i).payload("p" + i));
        }
        for (int i = 0; i < 200; i++) {
            specs.add(TaskSpec.of("later-" + i).after(Duration.ofMillis(700 + i)));
        }
        for (int i = 0; i < 20; i++) {
            specs.add(TaskSpec.of("fail-" + i));
        }
        assertThat(queue.client().enqueueAll(specs)).allMatch(r -> r.added());

        await().atMost(Duration.ofSeconds(60)).until(() -> runs.size() == 2_000 + 200 + 20 + 20
                && RunningWorkers.outcomes(worker, "acked") == 2_220);
        Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        runs.forEach(r -> attempts.computeIfAbsent(r.id(), id -> new CopyOnWriteArrayList<>()).add(r.attempt()));
        assertThat(attempts).hasSize(2_220);
        attempts.forEach((id, seen) -> assertThat(seen).as(id).isEqualTo(id.startsWith("fail-") ? List.of(1, 2) : List.of(1)));
        // the worker holds a task claimed with its window until the server's clock reads its due time; the clock is
        // learned at millisecond resolution, so a millisecond of rounding either way
        assertThat(runs).allSatisfy(r -> assertThat(r.ranAt()).as("%s ran before it was due", r.id()).isGreaterThanOrEqualTo(r.dueAt() - 1));
        for (int shard = 0; shard < SHARDS; shard++) {
            String prefix = "dq:{" + Q + ":" + shard + "}:";
            assertThat(get(queue.redis().keys(prefix + "*")))
                    .as("shard %d keeps nothing of the drained tasks", shard)
                    // (a claim's replay key lives out its lease: it answers a re-sent claim)
                    .allMatch(k -> k.equals(prefix + "seq") || k.equals(prefix + "marker") || k.startsWith(prefix + "claim:"));
        }
    }
}
