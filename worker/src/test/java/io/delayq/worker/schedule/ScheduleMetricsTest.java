package io.delayq.worker.schedule;

import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.PlanRules;
import io.delayq.schedule.PlanState;
import io.delayq.schedule.SchedulePlanner;
import io.delayq.schedule.StoredSchedule;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schedule gauges when a turn plans only some schedules: computed from this worker's last view of
 * each schedule and its last successful turn; NaN once the view may have been overtaken by another
 * planner; gone with the schedule.
 */
class ScheduleMetricsTest {
    private static final long T = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli();
    private static final PlanRules RULES = new PlanRules(Duration.ofMinutes(2), Duration.ofMinutes(1), 500);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ScheduleMetrics metrics = new ScheduleMetrics(registry, "q");

    private double gauge(String name) {
        Gauge g = registry.find(name).tags("queue", "q", "schedule", "tick").gauge();
        return g == null ? Double.NEGATIVE_INFINITY : g.value();
    }

    private static SchedulePlanner.Turn turn(long now, Map<String, SchedulePlanner.Result> results, Set<String> gone) {
        return new SchedulePlanner.Turn(now, results.size(), 0, 0, 0, 0, 0, 0, results, false, gone);
    }

    @Test
    void gaugesFollowTheLastTurnUntilTheViewMayHaveBeenOvertakenAndVanishWithTheSchedule() {
        StoredSchedule def = StoredSchedule.parse("1|" + (T - 1) + "|" + CronSchedule.of("tick", "* * * * *").toJson());
        PlanState planned = RULES.plan(def, PlanRules.fresh(def), T).orElseThrow().next(); // T … T+2 min enqueued
        long nextPlanning = RULES.nextPlanning(def, planned, T, Duration.ofMinutes(10)); // T+1 min
        metrics.record(turn(T, Map.of("tick", new SchedulePlanner.Result(def, planned, 3, 0, 0, nextPlanning + 60_000)), Set.of()));
        assertThat(gauge("delayq.schedule.last.fired.timestamp")).isEqualTo(T / 1000.0);
        assertThat(gauge("delayq.schedule.expected.fire.timestamp")).isEqualTo(T / 1000.0);
        assertThat(gauge("delayq.schedule.next.fire.timestamp")).isEqualTo((T + 60_000) / 1000.0);

        // later turns that did not plan tick move its gauges with them
        metrics.record(turn(T + 61_000, Map.of(), Set.of()));
        assertThat(gauge("delayq.schedule.last.fired.timestamp")).isEqualTo((T + 60_000) / 1000.0);
        assertThat(gauge("delayq.schedule.expected.fire.timestamp")).isEqualTo((T + 60_000) / 1000.0);
        assertThat(gauge("delayq.schedule.next.fire.timestamp")).isEqualTo((T + 120_000) / 1000.0);

        // past its fresh-until another planner may have planned it since: absent here, the fleet's max comes from that one
        metrics.record(turn(T + 121_000, Map.of(), Set.of()));
        assertThat(gauge("delayq.schedule.last.fired.timestamp")).isNaN();
        assertThat(gauge("delayq.schedule.expected.fire.timestamp")).isNaN();
        assertThat(gauge("delayq.schedule.next.fire.timestamp")).isNaN();

        metrics.record(turn(T + 122_000, Map.of(), Set.of("tick")));
        assertThat(gauge("delayq.schedule.next.fire.timestamp")).as("removed with the schedule").isInfinite();
        assertThat(registry.find("delayq.schedule.enqueued").tags("schedule", "tick").counter()).isNull();
    }
}
