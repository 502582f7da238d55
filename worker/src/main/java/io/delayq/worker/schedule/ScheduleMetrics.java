package io.delayq.worker.schedule;

import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.OccurrenceId;
import io.delayq.schedule.PlanState;
import io.delayq.schedule.SchedulePlanner;
import io.delayq.schedule.StoredSchedule;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code delayq_schedule_*}: per schedule, occurrences this worker enqueued, missed (skipped by the
 * misfire policy) and late; the last fired, the expected (latest due by the cron) and the next
 * occurrence as timestamps, so that an alert sees a schedule that stopped firing. Counters count what
 * this worker's planner did, so their sum over the fleet counts each occurrence once.
 * <p>
 * A turn plans only the schedules due for planning, so the gauges are computed at scrape time from
 * the schedule as this worker last planned it and the time of its last successful turn: they move
 * with that time (and freeze when turns fail, which the alert sees as a stale next firing). A view
 * that another planner may have overtaken (older than its {@code freshUntil}) reads as absent (NaN):
 * the fleet's {@code max} then comes from the planner that planned it last.
 */
public final class ScheduleMetrics {
    /** Meters of a schedule this worker has not planned for this long are removed. */
    private static final long FORGET_MILLIS = Duration.ofHours(1).toMillis();

    private final MeterRegistry registry;
    private final String queue;
    private final Counter failedTurns;
    private final Map<String, PerSchedule> schedules = new HashMap<>();
    private volatile long lastTurn;

    public ScheduleMetrics(MeterRegistry registry, String queue) {
        this.registry = registry;
        this.queue = queue;
        this.failedTurns = Counter.builder("delayq.schedule.planning.failures").description("Planning turns that failed (Redis unreachable)")
                .tag("queue", queue).register(registry);
    }

    /** One schedule as this worker last planned it. */
    private record View(StoredSchedule definition, PlanState state, long freshUntil) {
    }

    private final class PerSchedule {
        final Counter enqueued;
        final Counter missed;
        final Counter late;
        volatile View view;
        final List<Meter> meters = new ArrayList<>();

        PerSchedule(String name) {
            enqueued = counter("delayq.schedule.enqueued", "Occurrences this worker's planner enqueued", name);
            missed = counter("delayq.schedule.missed", "Occurrences skipped by the misfire policy (no planner ran in time)", name);
            late = counter("delayq.schedule.late", "Occurrences enqueued after their instant, within the misfire threshold", name);
            meters.add(Gauge.builder("delayq.schedule.last.fired.timestamp", this, PerSchedule::lastFired).baseUnit("seconds")
                    .description("Instant of the latest occurrence that fired (epoch seconds)").tags("queue", queue, "schedule", name).register(registry));
            meters.add(Gauge.builder("delayq.schedule.expected.fire.timestamp", this, PerSchedule::expected).baseUnit("seconds")
                    .description("Instant of the latest occurrence due by the cron since the definition changed (epoch seconds); absent while paused")
                    .tags("queue", queue, "schedule", name).register(registry));
            meters.add(Gauge.builder("delayq.schedule.next.fire.timestamp", this, PerSchedule::next).baseUnit("seconds")
                    .description("Instant of the next occurrence (epoch seconds)").tags("queue", queue, "schedule", name).register(registry));
        }

        private Counter counter(String meter, String help, String name) {
            Counter c = Counter.builder(meter).description(help).tags("queue", queue, "schedule", name).register(registry);
            meters.add(c);
            return c;
        }

        /** The view if it is still this schedule's latest as of the last turn, else null. */
        private View current() {
            View v = view;
            return v == null || lastTurn > v.freshUntil() ? null : v;
        }

        double lastFired() {
            View v = current();
            OccurrenceId last = v == null || v.state() == null ? null : v.state().lastFired(lastTurn);
            return last == null ? Double.NaN : last.epochMillis() / 1000.0;
        }

        double expected() {
            View v = current();
            if (v == null || v.definition().definition().paused()) {
                return Double.NaN;
            }
            CronSchedule d = v.definition().definition();
            Instant now = Instant.ofEpochMilli(lastTurn);
            return d.times().previous(d.end() != null && d.end().isBefore(now) ? d.end() : now)
                    .filter(t -> t.toEpochMilli() > v.definition().updatedAt())
                    .filter(t -> d.start() == null || !t.isBefore(d.start()))
                    .map(t -> t.toEpochMilli() / 1000.0).orElse(Double.NaN);
        }

        double next() {
            View v = current();
            if (v == null || v.definition().definition().paused()) {
                return Double.NaN;
            }
            CronSchedule d = v.definition().definition();
            return d.times().next(Instant.ofEpochMilli(lastTurn)).filter(t -> d.end() == null || !t.isAfter(d.end()))
                    .map(t -> t.toEpochMilli() / 1000.0).orElse(Double.NaN);
        }
    }

    public synchronized void record(SchedulePlanner.Turn turn) {
        lastTurn = turn.now();
        turn.results().forEach((name, r) -> {
            PerSchedule p = schedules.computeIfAbsent(name, PerSchedule::new);
            p.enqueued.increment(r.enqueued());
            p.missed.increment(r.missed());
            p.late.increment(r.late());
            p.view = new View(r.definition(), r.state(), r.freshUntil());
        });
        schedules.entrySet().removeIf(e -> {
            View v = e.getValue().view;
            boolean forget = turn.gone().contains(e.getKey()) || v == null || turn.now() - v.freshUntil() > FORGET_MILLIS;
            if (forget) {
                e.getValue().meters.forEach(registry::remove);
            }
            return forget;
        });
    }

    public void failedTurn() {
        failedTurns.increment();
    }
}
