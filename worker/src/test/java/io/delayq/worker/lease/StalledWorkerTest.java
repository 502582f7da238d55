package io.delayq.worker.lease;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker that stalls with a task in hand (its handler blocked, its heartbeats not reaching Redis)
 * loses the lease: another worker gets the task on attempt 2, and when the stalled one finally
 * returns, its ack is refused by the fencing token (counted as lease_lost, never acked twice).
 */
class StalledWorkerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "stalls";
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch unblock = new CountDownLatch(1);
    private FreezableProxy proxy;
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @BeforeEach
    void open() {
        proxy = new FreezableProxy(redis.server().port());
    }

    @AfterEach
    void close() {
        unblock.countDown();
        proxy.thaw();
        workers.close();
        proxy.close();
    }

    private Map<String, String> env(String url) {
        Map<String, String> env = RunningWorkers.env(url, Q, 1);
        env.put("DELAYQ_LEASE", "300ms");
        env.put("DELAYQ_CONCURRENCY", "1");
        return env;
    }

    @Test
    void theTaskIsRedeliveredAndTheLateAckOfTheStalledWorkerIsRefused() {
        Worker stalled = workers.startHandler(env(proxy.url()), task -> {
            calls.add("stalled:" + task.attempt());
            unblock.await(60, TimeUnit.SECONDS);
        });
        queue.client().enqueue(TaskSpec.of("invoice-5"));
        await().atMost(Duration.ofSeconds(10)).until(() -> calls.size() == 1);

        proxy.freeze();
        Worker healthy = workers.startHandler(env(redis.url()), task -> calls.add("healthy:" + task.attempt()));

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("invoice-5").state() == TaskInfo.State.UNKNOWN);
        assertThat(calls).containsExactly("stalled:1", "healthy:2");
        await().untilAsserted(() -> assertThat(outcomes(healthy, "acked")).isEqualTo(1));

        proxy.thaw();
        unblock.countDown();
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(outcomes(stalled, "lease_lost")).isEqualTo(1));
        assertThat(outcomes(stalled, "acked")).isZero();
        assertThat(outcomes(healthy, "lease_lost")).isZero();
        assertThat(queue.client().inspect("invoice-5").state()).as("not brought back by the late return").isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(calls).containsExactly("stalled:1", "healthy:2");
    }
}
