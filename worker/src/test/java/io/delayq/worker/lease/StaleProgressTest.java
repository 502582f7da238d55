package io.delayq.worker.lease;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker that stalled with a task in hand lost its lease, and the task went to another worker: the stalled
 * handler's progress reports are refused by the fencing token and never overwrite the new claim's progress.
 */
class StaleProgressTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "payouts";
    private final CountDownLatch stalledMayReport = new CountDownLatch(1);
    private final CountDownLatch stalledReported = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
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
        stalledMayReport.countDown();
        release.countDown();
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

    private static double refused(Worker w) {
        var c = w.registry().find("delayq.progress.writes").tag("result", "refused").functionCounter();
        return c == null ? 0 : c.count();
    }

    @Test
    void theStalledWorkersReportIsRefusedAndTheNewClaimsProgressStays() {
        Worker stalled = workers.startHandler(env(proxy.url()), task -> {
            stalledMayReport.await(60, TimeUnit.SECONDS);
            task.progress().report(99, "from the stalled worker");
            stalledReported.countDown();
            release.await(60, TimeUnit.SECONDS);
        });
        queue.client().enqueue(TaskSpec.of("payout-9"));
        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect("payout-9").state() == TaskInfo.State.IN_FLIGHT);

        proxy.freeze();
        Worker healthy = workers.startHandler(env(redis.url()), task -> {
            task.progress().report(10, "attempt " + task.attempt());
            release.await(60, TimeUnit.SECONDS);
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            TaskInfo info = queue.client().inspect("payout-9");
            assertThat(info.attempts()).isEqualTo(2);
            assertThat(info.progress()).isNotNull();
            assertThat(info.progress().note()).isEqualTo("attempt 2");
        });

        proxy.thaw();
        stalledMayReport.countDown();
        await().atMost(Duration.ofSeconds(15)).until(() -> refused(stalled) == 1);
        assertThat(queue.client().inspect("payout-9").progress().note()).isEqualTo("attempt 2");

        release.countDown();
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(outcomes(healthy, "acked")).isEqualTo(1));
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(outcomes(stalled, "lease_lost")).isEqualTo(1));
        assertThat(queue.client().inspect("payout-9").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(TestQueue.get(queue.redis().hlen(queue.keys(0).progress()))).isZero();
    }
}
