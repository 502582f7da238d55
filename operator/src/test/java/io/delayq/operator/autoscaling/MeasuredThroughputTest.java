package io.delayq.operator.autoscaling;

import io.delayq.operator.redis.QueueReader;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.redis.RedisCredentials;
import io.delayq.presence.WorkerPresence;
import io.delayq.shard.ShardRange;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real worker on a real Redis, looked at twice by the operator's reader: its heartbeats give the throughput a
 * replica reaches while its range has more due work than it takes, and nothing while it keeps up.
 */
class MeasuredThroughputTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "measured";
    private static final List<ShardRange> RANGE = List.of(new ShardRange(0, 3));
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private final QueueReader reader = new QueueReader(Duration.ofSeconds(2), Clock.systemUTC());

    @AfterEach
    void close() {
        reader.close();
    }

    private QueueReading look() {
        QueueReading reading = reader.read("ns/" + Q, redis.url(), RedisCredentials.NONE, Q, 4, RANGE);
        assertThat(reading.problem()).isNull();
        return reading;
    }

    private static ReplicaThroughput.Look of(QueueReading reading) {
        return new ReplicaThroughput.Look(reading.backlog(), reading.workers());
    }

    /** The next look at which the worker has beaten at least {@code span} after the given one. */
    private QueueReading lookAfter(QueueReading first, Duration span) {
        long from = first.workers().get(0).heartbeatAt();
        AtomicReference<QueueReading> later = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            later.set(look());
            return later.get().workers().size() == 1 && later.get().workers().get(0).heartbeatAt() >= from + span.toMillis();
        });
        return later.get();
    }

    @Test
    void aBusyWorkerIsMeasuredAtWhatItSettlesNeverAboveWhatItsHandlersAllow() {
        for (int i = 0; i < 4_000; i++) {
            queue.client().enqueue(TaskSpec.of("wave-" + i).at(Instant.now().minusSeconds(1)));
        }
        // 4 handler slots (RunningWorkers' DELAYQ_CONCURRENCY), 20 ms a task: at most 200 tasks/s
        workers.startHandler(RunningWorkers.env(redis.url(), Q, 4), task -> Thread.sleep(20));
        AtomicReference<QueueReading> first = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            first.set(look());
            return first.get().workers().size() == 1 && first.get().workers().get(0).delivered() > 0;
        });
        QueueReading second = lookAfter(first.get(), Duration.ofSeconds(5));
        assertThat(second.backlog().get(RANGE.get(0)).due()).as("still busy at the second look").isGreaterThan(200);

        OptionalDouble rate = ReplicaThroughput.between(of(first.get()), of(second), 50);

        WorkerPresence a = first.get().workers().get(0);
        WorkerPresence b = second.workers().get(0);
        assertThat(rate).isPresent();
        assertThat(rate.getAsDouble()).as("its own count over its own heartbeats")
                .isEqualTo((b.delivered() - a.delivered()) * 1000.0 / (b.heartbeatAt() - a.heartbeatAt()))
                .isGreaterThan(0).isLessThanOrEqualTo(200 * 1.05);
    }

    @Test
    void aWorkerThatKeepsUpIsNotMeasured() {
        workers.startHandler(RunningWorkers.env(redis.url(), Q, 4), task -> { });
        AtomicReference<QueueReading> first = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            first.set(look());
            return first.get().workers().size() == 1;
        });
        for (int i = 0; i < 50; i++) {
            queue.client().enqueue(TaskSpec.of("trickle-" + i).after(Duration.ZERO));
        }
        QueueReading second = lookAfter(first.get(), Duration.ofSeconds(5));
        assertThat(second.workers().get(0).delivered()).as("it fired the trickle").isPositive();

        assertThat(ReplicaThroughput.between(of(first.get()), of(second), 50)).isEmpty();
    }
}
