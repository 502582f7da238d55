package io.delayq.worker.lease;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.handler.TaskHandler;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static io.delayq.worker.dispatch.RunningWorkers.reclaimed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A handler that runs far longer than the lease keeps it by heartbeat: with a second worker waiting
 * for expired leases, the task is still delivered once, on attempt 1, and acked once.
 */
class HeartbeatTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "longrun";
    private static final long LEASE_MS = 300;
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch finish = new CountDownLatch(1);
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @AfterEach
    void close() {
        finish.countDown();
        workers.close();
    }

    private Worker worker(String name) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        env.put("DELAYQ_LEASE", LEASE_MS + "ms");
        env.put("DELAYQ_CONCURRENCY", "2");
        TaskHandler slow = task -> {
            calls.add(name + ":" + task.id() + ":" + task.attempt());
            finish.await(30, TimeUnit.SECONDS);
        };
        return workers.startHandler(env, slow);
    }

    @Test
    void aLongRunningHandlerKeepsItsLeaseAndIsDeliveredOnce() {
        Worker a = worker("a");
        Worker b = worker("b");
        queue.client().enqueue(TaskSpec.of("report-1"));

        await().atMost(Duration.ofSeconds(10)).until(() -> calls.size() == 1);
        TaskInfo first = queue.client().inspect("report-1");
        assertThat(first.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        long firstExpiry = first.score();
        long claimedAt = firstExpiry - LEASE_MS;

        // three leases long on the Redis clock, the lease must stay alive the whole time
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            TaskInfo now = queue.client().inspect("report-1");
            assertThat(now.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
            assertThat(now.score()).as("lease expiry").isGreaterThan(now.serverNow());
            assertThat(now.attempts()).isEqualTo(1);
            assertThat(now.serverNow()).isGreaterThanOrEqualTo(claimedAt + 3 * LEASE_MS);
        });
        assertThat(queue.client().inspect("report-1").score()).as("renewed").isGreaterThan(firstExpiry);
        assertThat(calls).hasSize(1);

        finish.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("report-1").state() == TaskInfo.State.UNKNOWN);
        await().untilAsserted(() -> assertThat(outcomes(a, "acked") + outcomes(b, "acked")).isEqualTo(1));
        assertThat(calls).hasSize(1).allSatisfy(c -> assertThat(c).endsWith(":report-1:1"));
        for (Worker w : List.of(a, b)) {
            assertThat(outcomes(w, "lease_lost")).isZero();
            assertThat(outcomes(w, "retried")).isZero();
            assertThat(reclaimed(w, "requeued") + reclaimed(w, "dead")).isZero();
        }
    }
}
