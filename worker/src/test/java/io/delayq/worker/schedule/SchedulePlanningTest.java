package io.delayq.worker.schedule;

import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.MisfirePolicy;
import io.delayq.schedule.OccurrenceId;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import io.delayq.worker.metrics.PrometheusText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An in-process worker plans a schedule it finds in Redis, delivers its occurrences and exports delayq_schedule_*. */
class SchedulePlanningTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "planned";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private static Map<String, String> env() {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        env.put("DELAYQ_SCHEDULE_INTERVAL", "200ms");
        env.put("DELAYQ_SCHEDULE_HORIZON", "2s");
        return env;
    }

    @Test
    void theWorkerFiresTheScheduleAndExportsItsLastAndExpectedFiring() {
        Map<String, Integer> handled = new ConcurrentHashMap<>();
        io.delayq.schedule.Schedules.of(queue.client()).put(CronSchedule.of("tick", "* * * * * *").misfire(MisfirePolicy.DO_NOTHING, 0));
        Worker w = workers.startHandler(env(), task -> handled.merge(task.id(), 1, Integer::sum));
        await().atMost(Duration.ofSeconds(15)).until(() -> handled.size() >= 3);
        assertThat(handled.keySet()).allSatisfy(id -> assertThat(OccurrenceId.parse(id)).hasValueSatisfying(o -> {
            assertThat(o.schedule()).isEqualTo("tick");
            assertThat(o.revision()).isEqualTo(1);
        }));
        assertThat(handled.values()).containsOnly(1);
        Map<String, String> labels = Map.of("queue", Q, "schedule", "tick");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            PrometheusText m = new PrometheusText(w.registry().scrape());
            double last = m.value("delayq_schedule_last_fired_timestamp_seconds", labels);
            double expected = m.value("delayq_schedule_expected_fire_timestamp_seconds", labels);
            assertThat(last).isPositive();
            assertThat(expected - last).as("the schedule keeps up with its cron").isBetween(-1.0, 1.0);
            assertThat(m.value("delayq_schedule_next_fire_timestamp_seconds", labels)).isGreaterThan(last);
            assertThat(m.value("delayq_schedule_enqueued_total", labels)).isGreaterThanOrEqualTo(3);
            assertThat(m.value("delayq_schedule_missed_total", labels)).isZero();
        });

        io.delayq.schedule.Schedules.of(queue.client()).remove("tick");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(new PrometheusText(w.registry().scrape()).find("delayq_schedule_last_fired_timestamp_seconds", labels)).isEmpty());
    }
}
