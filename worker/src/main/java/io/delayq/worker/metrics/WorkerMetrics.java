package io.delayq.worker.metrics;

import io.delayq.DurationText;
import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;
import io.delayq.backlog.ShardStats;
import io.delayq.shard.ShardRange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker's meters, under the names the chart's alerts and dashboard use
 * ({@code delayq_backlog_*}, {@code delayq_tasks_due_within}, {@code delayq_dispatch_lag_seconds}, {@code delayq_tasks_total}, …).
 */
public final class WorkerMetrics {
    private final Timer lag;
    private final Timer handlerDuration;
    private final Counter acked;
    private final Counter retried;
    private final Counter dead;
    private final Counter leaseLost;
    private final Counter reclaimedRequeued;
    private final Counter reclaimedDead;
    private final Counter handlerTimeouts;
    private final Counter malformed;
    private final Counter expiredDead;
    private final Counter expiredDiscarded;
    private final DistributionSummary batchSize;
    private final AtomicLong consecutiveFailures = new AtomicLong();
    private final Map<Integer, ShardGauges> shards = new HashMap<>();

    public WorkerMetrics(MeterRegistry registry, String queue, ShardRange range) {
        lag = Timer.builder("delayq.dispatch.lag").description("Time from a task's due time to the start of its delivery")
                .tag("queue", queue).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
        handlerDuration = Timer.builder("delayq.handler.duration").description("Time a delivery (handler, webhook or stream) took")
                .tag("queue", queue).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(10)).register(registry);
        acked = outcome(registry, queue, "acked");
        retried = outcome(registry, queue, "retried");
        dead = outcome(registry, queue, "dead");
        leaseLost = outcome(registry, queue, "lease_lost");
        reclaimedRequeued = Counter.builder("delayq.leases.reclaimed").description("Expired leases recovered by this worker")
                .tag("queue", queue).tag("result", "requeued").register(registry);
        reclaimedDead = Counter.builder("delayq.leases.reclaimed").description("Expired leases recovered by this worker")
                .tag("queue", queue).tag("result", "dead").register(registry);
        handlerTimeouts = Counter.builder("delayq.handler.timeouts").description("Handlers abandoned past DELAYQ_HANDLER_TIMEOUT (their task is retried)")
                .tag("queue", queue).register(registry);
        malformed = Counter.builder("delayq.tasks.malformed")
                .description("Tasks dead-lettered because their id, score, record or keys break the protocol (also counted as dead)")
                .tag("queue", queue).register(registry);
        expiredDead = expired(registry, queue, "dead");
        expiredDiscarded = expired(registry, queue, "discard");
        batchSize = DistributionSummary.builder("delayq.claim.batch.size").description("Tasks returned by one claim")
                .tag("queue", queue).register(registry);
        Gauge.builder("delayq.consecutive.failures", consecutiveFailures, AtomicLong::get)
                .description("Failed deliveries in a row (reset by a success)").tag("queue", queue).register(registry);
        Gauge.builder("delayq.worker.info", () -> 1).description("1 while a worker runs; labels tell its shard range")
                .tag("queue", queue).tag("shard_from", String.valueOf(range.from())).tag("shard_to", String.valueOf(range.to()))
                .register(registry);
        range.shards().forEach(s -> shards.put(s, new ShardGauges(registry, queue, s)));
    }

    /** The {@code window} label of a forecast window: {@code 1m}, {@code 5m}, {@code 15m}, {@code 1h}. */
    public static String windowLabel(Duration window) {
        return DurationText.format(window);
    }

    private static Counter outcome(MeterRegistry registry, String queue, String outcome) {
        return Counter.builder("delayq.tasks").description("Deliveries by outcome")
                .tag("queue", queue).tag("outcome", outcome).register(registry);
    }

    private static Counter expired(MeterRegistry registry, String queue, String action) {
        return Counter.builder("delayq.tasks.expired")
                .description("Tasks not run because they were not started by their expiresAt (dead: also counted as dead; discard: also as acked)")
                .tag("queue", queue).tag("action", action).register(registry);
    }

    /** A task not run because its expiry passed: dead-lettered or discarded. */
    public void expired(boolean discarded) {
        (discarded ? expiredDiscarded : expiredDead).increment();
    }

    public void lag(long millis) {
        lag.record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    public void handled(long nanos) {
        handlerDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    public void batch(int size) {
        batchSize.record(size);
    }

    public void acked(int n) {
        acked.increment(n);
        consecutiveFailures.set(0);
    }

    public void retried() {
        retried.increment();
        consecutiveFailures.incrementAndGet();
    }

    public void dead() {
        dead.increment();
        consecutiveFailures.incrementAndGet();
    }

    public void leaseLost(int n) {
        leaseLost.increment(n);
    }

    public void handlerTimedOut() {
        handlerTimeouts.increment();
    }

    public void malformed() {
        malformed.increment();
    }

    /** 1 while claims on the shard fail on its data (a key of the wrong type), 0 otherwise. */
    public void shardFaulty(int shard, boolean faulty) {
        ShardGauges g = shards.get(shard);
        if (g != null) {
            g.faulty.set(faulty ? 1 : 0);
        }
    }

    public void reclaimed(long requeued, long died) {
        reclaimedRequeued.increment(requeued);
        reclaimedDead.increment(died);
    }

    public double ackedCount() {
        return acked.count();
    }

    /** Deliveries settled since start, whatever their outcome: this worker's throughput, counted as its metrics count it. */
    public long settledCount() {
        return (long) (acked.count() + retried.count() + dead.count());
    }

    public void backlog(ShardStats stats) {
        ShardGauges g = shards.get(stats.shard());
        if (g != null) {
            g.update(stats);
        }
    }

    /** A shard's due forecast, read with {@link DueForecast#DEFAULT_WINDOWS}. */
    public void forecast(int shard, DueForecast forecast) {
        ShardGauges g = shards.get(shard);
        if (g != null) {
            g.update(forecast);
        }
    }

    private static final class ShardGauges {
        final AtomicLong scheduled = new AtomicLong();
        final AtomicLong due = new AtomicLong();
        final AtomicLong inflight = new AtomicLong();
        final AtomicLong dead = new AtomicLong();
        final AtomicLong oldestOverdueMillis = new AtomicLong();
        final AtomicLong faulty = new AtomicLong();
        final Map<Duration, AtomicLong> dueWithin = new LinkedHashMap<>();
        final NextDueGauge nextDue;

        ShardGauges(MeterRegistry registry, String queue, int shard) {
            String s = String.valueOf(shard);
            for (Duration window : DueForecast.DEFAULT_WINDOWS) {
                AtomicLong tasks = new AtomicLong();
                dueWithin.put(window, tasks);
                Gauge.builder("delayq.tasks.due.within", tasks, AtomicLong::get)
                        .description("Tasks waiting for a future due time that falls within the window from now (not the ones due already)")
                        .tag("queue", queue).tag("shard", s).tag("window", windowLabel(window)).register(registry);
            }
            nextDue = new NextDueGauge(registry, queue, s);
            gauge(registry, "delayq.backlog.scheduled.tasks", "Tasks waiting for a future due time", queue, s, scheduled);
            gauge(registry, "delayq.backlog.due.tasks", "Tasks due now and not yet claimed", queue, s, due);
            gauge(registry, "delayq.backlog.inflight.tasks", "Tasks claimed and not yet acked", queue, s, inflight);
            gauge(registry, "delayq.backlog.dead.tasks", "Tasks in the dead-letter set", queue, s, dead);
            Gauge.builder("delayq.backlog.oldest.overdue", oldestOverdueMillis, v -> v.get() / 1000.0)
                    .description("Age of the oldest due task not yet claimed").baseUnit("seconds")
                    .tag("queue", queue).tag("shard", s).register(registry);
            gauge(registry, "delayq.shard.faulty", "1 while claims on the shard fail on its data (a key of the wrong type; see the worker log)",
                    queue, s, faulty);
        }

        private static void gauge(MeterRegistry r, String name, String help, String queue, String shard, AtomicLong v) {
            Gauge.builder(name, v, AtomicLong::get).description(help).tag("queue", queue).tag("shard", shard).register(r);
        }

        void update(ShardStats st) {
            scheduled.set(st.scheduled());
            due.set(st.due());
            inflight.set(st.inflight());
            dead.set(st.dead());
            oldestOverdueMillis.set(st.oldestOverdueMillis());
        }

        void update(DueForecast f) {
            for (DueWindow w : f.windows()) {
                AtomicLong tasks = dueWithin.get(w.length());
                if (tasks != null) {
                    tasks.set(w.tasks());
                }
            }
            nextDue.set(f.nextDueAt());
        }
    }
}
