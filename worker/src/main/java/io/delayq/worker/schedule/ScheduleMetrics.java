package io.delayq.worker.schedule;

import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.OccurrenceId;
import io.delayq.schedule.SchedulePlanner;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code delayq_schedule_*}: per schedule, occurrences this worker enqueued, missed (skipped by the
 * misfire policy) and late; the last fired and the expected (latest due by the cron) occurrence as
 * timestamps, so that an alert sees a schedule that stopped firing. Every worker exports the same
 * gauges (they read Redis); counters count what this worker's planner did, so their sum over the
 * fleet counts each occurrence once.
 */
public final class ScheduleMetrics {
    private final MeterRegistry registry;
    private final String queue;
    private final Counter failedTurns;
    private final Map<String, PerSchedule> schedules = new HashMap<>();

    public ScheduleMetrics(MeterRegistry registry, String queue) {
        this.registry = registry;
        this.queue = queue;
        this.failedTurns = Counter.builder("delayq.schedule.planning.failures").description("Planning turns that failed (Redis unreachable)")
                .tag("queue", queue).register(registry);
    }

    private final class PerSchedule {
        final Counter enqueued;
        final Counter missed;
        final Counter late;
        volatile double lastFired = Double.NaN;
        volatile double expected = Double.NaN;
        volatile double next = Double.NaN;
        final List<Meter> meters = new ArrayList<>();

        PerSchedule(String name) {
            enqueued = counter("delayq.schedule.enqueued", "Occurrences this worker's planner enqueued", name);
            missed = counter("delayq.schedule.missed", "Occurrences skipped by the misfire policy (no planner ran in time)", name);
            late = counter("delayq.schedule.late", "Occurrences enqueued after their instant, within the misfire threshold", name);
            meters.add(Gauge.builder("delayq.schedule.last.fired.timestamp", this, p -> p.lastFired).baseUnit("seconds")
                    .description("Instant of the latest occurrence that fired (epoch seconds)").tags("queue", queue, "schedule", name).register(registry));
            meters.add(Gauge.builder("delayq.schedule.expected.fire.timestamp", this, p -> p.expected).baseUnit("seconds")
                    .description("Instant of the latest occurrence due by the cron since the definition changed (epoch seconds); absent while paused")
                    .tags("queue", queue, "schedule", name).register(registry));
            meters.add(Gauge.builder("delayq.schedule.next.fire.timestamp", this, p -> p.next).baseUnit("seconds")
                    .description("Instant of the next occurrence (epoch seconds)").tags("queue", queue, "schedule", name).register(registry));
        }

        private Counter counter(String meter, String help, String name) {
            Counter c = Counter.builder(meter).description(help).tags("queue", queue, "schedule", name).register(registry);
            meters.add(c);
            return c;
        }
    }

    public synchronized void record(SchedulePlanner.Turn turn) {
        Set<String> seen = new HashSet<>();
        turn.results().forEach((name, r) -> {
            seen.add(name);
            PerSchedule p = schedules.computeIfAbsent(name, PerSchedule::new);
            p.enqueued.increment(r.enqueued());
            p.missed.increment(r.missed());
            p.late.increment(r.late());
            CronSchedule d = r.definition().definition();
            Instant now = Instant.ofEpochMilli(turn.now());
            if (r.state() != null) {
                OccurrenceId last = r.state().lastFired(turn.now());
                p.lastFired = last == null ? Double.NaN : last.epochMillis() / 1000.0;
            }
            p.expected = d.paused() ? Double.NaN : d.times().previous(d.end() != null && d.end().isBefore(now) ? d.end() : now)
                    .filter(t -> t.toEpochMilli() > r.definition().updatedAt())
                    .filter(t -> d.start() == null || !t.isBefore(d.start()))
                    .map(t -> t.toEpochMilli() / 1000.0).orElse(Double.NaN);
            p.next = d.paused() ? Double.NaN : d.times().next(now).filter(t -> d.end() == null || !t.isAfter(d.end()))
                    .map(t -> t.toEpochMilli() / 1000.0).orElse(Double.NaN);
        });
        schedules.keySet().removeIf(name -> {
            if (seen.contains(name)) {
                return false;
            }
            schedules.get(name).meters.forEach(registry::remove);
            return true;
        });
    }

    public void failedTurn() {
        failedTurns.increment();
    }
}
