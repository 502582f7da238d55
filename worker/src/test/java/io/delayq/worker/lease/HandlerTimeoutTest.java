package io.delayq.worker.lease;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
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
import java.util.concurrent.atomic.AtomicBoolean;

import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hung handler would keep its task forever (the heartbeat renews the lease); past
 * DELAYQ_HANDLER_TIMEOUT the task is retried and the handler interrupted.
 */
class HandlerTimeoutTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "hung";
    private final List<Integer> attempts = new CopyOnWriteArrayList<>();
    private final CountDownLatch never = new CountDownLatch(1);
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    @AfterEach
    void release() {
        never.countDown();
    }

    private Map<String, String> env() {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        // past the lease, so only the heartbeat keeps the task until the deadline; the lease is long
        // enough that a busy test machine does not miss a renewal (a lost lease is another test's subject)
        env.put("DELAYQ_HANDLER_TIMEOUT", "1500ms");
        env.put("DELAYQ_LEASE", "1s");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "0s");
        env.put("DELAYQ_CONCURRENCY", "2");
        return env;
    }

    @Test
    void aHandlerPastItsDeadlineIsInterruptedAndTheTaskRetried() {
        AtomicBoolean interrupted = new AtomicBoolean();
        Worker w = workers.startHandler(env(), task -> {
            attempts.add(task.attempt());
            if (task.attempt() == 1) {
                try {
                    never.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw e;
                }
            }
        });
        queue.client().enqueue(TaskSpec.of("stuck-1"));

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
        assertThat(attempts).containsExactly(1, 2);
        assertThat(interrupted).isTrue();
        // the counters move in the callbacks of the scripts' answers, just after Redis changed
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(outcomes(w, "retried")).isEqualTo(1);
            assertThat(w.registry().find("delayq.handler.timeouts").counter().count()).isEqualTo(1);
        });
        assertThat(queue.client().inspect("stuck-1").state()).isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
    }

    @Test
    void aHandlerThatIgnoresTheInterruptCannotSettleItsTaskAgainWhenItFinallyReturns() {
        CountDownLatch secondDone = new CountDownLatch(1);
        CountDownLatch firstReturned = new CountDownLatch(1);
        Worker w = workers.startHandler(env(), task -> {
            attempts.add(task.attempt());
            if (task.attempt() == 1) {
                // deaf to interrupts: returns (as a success) only once attempt 2 has been handled
                boolean done = false;
                while (!done) {
                    try {
                        done = secondDone.await(50, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException ignored) {
                        // deaf: carries on
                    }
                }
                firstReturned.countDown();
            } else {
                secondDone.countDown();
            }
        });
        queue.client().enqueue(TaskSpec.of("deaf-1"));

        await().atMost(Duration.ofSeconds(15)).until(() -> firstReturned.getCount() == 0);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
        // the late success of attempt 1 was not sent: no second ack, no "lease lost"
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(outcomes(w, "acked")).isEqualTo(1);
            assertThat(outcomes(w, "lease_lost")).isZero();
        });
        assertThat(attempts).containsExactly(1, 2);
    }
}
