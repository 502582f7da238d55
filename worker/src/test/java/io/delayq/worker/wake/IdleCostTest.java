package io.delayq.worker.wake;

import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.CommandCounts;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An idle worker's Redis work does not grow with its shard count (polling every shard of 1,024 would cost
 * thousands of commands a second): counted with INFO commandstats over a window, commands inside scripts included.
 */
class IdleCostTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "idle";
    private static final int SHARDS = 1024;
    /** What one idle worker may cost Redis, at any shard count (docs/bench.md, "Idle cost by shard count"). */
    private static final double MAX_COMMANDS_PER_SECOND = 100;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, SHARDS);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @Test
    void anIdleWorkerOverAThousandShardsIssuesAFewCommandsASecond() throws Exception {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, SHARDS);
        env.remove("DELAYQ_POLL_INTERVAL");
        env.remove("DELAYQ_LEASE");
        Set<String> fired = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(env, task -> fired.add(task.id()));
        // at start every shard is claimed once (the worker knows nothing yet); the window starts after that
        await().atMost(Duration.ofSeconds(60)).until(() -> RunningWorkers.claimBatches(w).count() >= SHARDS);

        long claimsBefore = RunningWorkers.claimBatches(w).count();
        Map<String, Long> before = CommandCounts.of(queue.redis());
        long t0 = System.nanoTime();
        Thread.sleep(5_000); // the measuring window, not a wait for something to happen
        Map<String, Long> after = CommandCounts.of(queue.redis());
        double seconds = (System.nanoTime() - t0) / 1e9;
        long commands = CommandCounts.delta(before, after);
        assertThat(commands).as("commands in %.1f s idle over %d shards: %s", seconds, SHARDS, after)
                .isLessThanOrEqualTo((long) (MAX_COMMANDS_PER_SECOND * seconds));
        // and nothing in it is a claim: idle shards are not claimed on a timer (counted by the worker: a
        // ZRANGEBYSCORE in commandstats may also be the schedule planner's schedule_take)
        assertThat(RunningWorkers.claimBatches(w).count() - claimsBefore).as("claims while idle").isZero();

        // a task from delayq's producer (which writes the shard's marker) still fires at once
        queue.client().enqueue(TaskSpec.of("marked"));
        await().atMost(Duration.ofSeconds(5)).until(() -> fired.contains("marked"));
    }
}
