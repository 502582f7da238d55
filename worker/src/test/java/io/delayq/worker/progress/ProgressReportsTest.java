package io.delayq.worker.progress;

import io.delayq.handler.PermanentFailure;
import io.delayq.handler.Progress;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
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
import java.util.concurrent.atomic.AtomicLong;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A real worker running handlers that report progress, against a real Redis: shown while running, gone at settle, throttled. */
class ProgressReportsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "exports";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseHandlers() {
        release.countDown();
    }

    private Map<String, String> env() {
        return RunningWorkers.env(redis.url(), Q, 1);
    }

    private TaskInfo inspect(String id) {
        return queue.client().inspect(id);
    }

    private long progressEntries() {
        return get(queue.redis().hlen(queue.keys(0).progress()));
    }

    @Test
    void inspectShowsWhatTheRunningHandlerReportedAndTheAckTakesItAway() {
        workers.startHandler(env(), task -> {
            task.progress().report(25, "2,500 of 10,000 rows");
            release.await(30, TimeUnit.SECONDS);
        });
        queue.client().enqueue(TaskSpec.of("export-1"));

        await().untilAsserted(() -> {
            TaskInfo info = inspect("export-1");
            assertThat(info.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
            assertThat(info.progress()).isNotNull();
            assertThat(info.progress().percent()).isEqualTo(25.0);
            assertThat(info.progress().note()).isEqualTo("2,500 of 10,000 rows");
        });
        release.countDown();
        await().until(() -> inspect("export-1").state() == TaskInfo.State.UNKNOWN);
        assertThat(progressEntries()).isZero();
        assertThat(queue.allKeys()).doesNotContain(queue.keys(0).progress());
    }

    @Test
    void aRetryTakesTheProgressAndTheNextAttemptStartsWithout() {
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        workers.startHandler(env(), task -> {
            attempts.add(task.attempt());
            if (task.attempt() == 1) {
                task.progress().report(60, "failing soon");
                throw new IllegalStateException("upstream 503");
            }
            release.await(30, TimeUnit.SECONDS);
        });
        queue.client().enqueue(TaskSpec.of("export-2"));

        await().until(() -> attempts.contains(2));
        TaskInfo second = inspect("export-2");
        assertThat(second.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(second.attempts()).isEqualTo(2);
        assertThat(second.progress()).as("the failed attempt's progress went with its retry").isNull();
        assertThat(progressEntries()).isZero();
    }

    @Test
    void aDeadLetterTakesTheProgress() {
        Worker w = workers.startHandler(env(), task -> {
            task.progress().report(80, "then a permanent failure");
            throw new PermanentFailure("the account is closed");
        });
        queue.client().enqueue(TaskSpec.of("export-3"));

        await().until(() -> inspect("export-3").state() == TaskInfo.State.DEAD);
        assertThat(inspect("export-3").progress()).isNull();
        assertThat(progressEntries()).isZero();
        assertThat(outcomes(w, "dead")).isEqualTo(1);
    }

    @Test
    void aHandlerReportingInATightLoopWritesAtMostOncePerSecondAndItsLatestReportWins() {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        AtomicLong reportingNanos = new AtomicLong();
        try (ProgressWritesCounter redisSaw = new ProgressWritesCounter(redis.url(), queue.keys(0).progress())) {
            Worker w = workers.startHandler(env(), task -> {
                long start = System.nanoTime();
                long i = 0;
                while (!stop.get()) {
                    i++;
                    task.progress().report(i % 101, "row " + i);
                }
                task.progress().report(100, "the last row");
                calls.set(i + 1);
                reportingNanos.set(System.nanoTime() - start);
                release.await(30, TimeUnit.SECONDS);
            });
            queue.client().enqueue(TaskSpec.of("export-4"));

            await().until(() -> redisSaw.written() >= 3);
            stop.set(true);
            await().untilAsserted(() -> assertThat(inspect("export-4").progress().note()).isEqualTo("the last row"));

            // Redis' keyspace notifications reach the counter a moment after the write, and the worker counts a write when
            // its answer comes back: wait until both have settled on the same number (the handler is parked, no more come)
            await().untilAsserted(() -> assertThat(redisSaw.written())
                    .isEqualTo((int) w.registry().find("delayq.progress.writes").tag("result", "written").functionCounter().count()));
            int written = redisSaw.written();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(reportingNanos.get());
            assertThat(calls.get()).as("reports made").isGreaterThan(1000);
            // one write at the first report, then at most one a second; the last report goes out one interval after the previous write
            assertThat(written).as("writes Redis saw for %s reports over %s s", calls.get(), seconds).isBetween(3, (int) seconds + 2);
            release.countDown();
            await().until(() -> inspect("export-4").state() == TaskInfo.State.UNKNOWN);
            assertThat(progressEntries()).isZero();
        }
    }

    @Test
    void badReportsAreRefusedWithAnErrorNamingTheRuleAndTheTaskStillSucceeds() {
        List<String> errors = new CopyOnWriteArrayList<>();
        Worker w = workers.startHandler(env(), task -> {
            for (Runnable bad : List.<Runnable>of(
                    () -> task.progress().report(101, "too far"),
                    () -> task.progress().report(-0.5, null),
                    () -> task.progress().report(Double.NaN, null),
                    () -> task.progress().report(50, "x".repeat(Progress.MAX_NOTE_BYTES + 1)))) {
                try {
                    bad.run();
                } catch (IllegalArgumentException e) {
                    errors.add(e.getMessage());
                }
            }
        });
        queue.client().enqueue(TaskSpec.of("export-5"));

        await().until(() -> outcomes(w, "acked") == 1);
        assertThat(errors).containsExactly(
                "progress percent: must be a number from 0 to 100, was 101.0",
                "progress percent: must be a number from 0 to 100, was -0.5",
                "progress percent: must be a number from 0 to 100, was NaN",
                "progress note: must be at most 200 bytes of UTF-8, was 201 bytes");
        assertThat(progressEntries()).isZero();
        assertThat(w.registry().find("delayq.progress.writes").tag("result", "written").functionCounter().count()).isZero();
    }
}
