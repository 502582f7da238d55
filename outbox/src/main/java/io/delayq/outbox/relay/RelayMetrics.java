package io.delayq.outbox.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The relay's meters, named like the worker's ({@code delayq_outbox_rows_pending},
 * {@code delayq_outbox_oldest_pending_age_seconds}, {@code delayq_outbox_relayed_total{op,result}},
 * {@code delayq_outbox_errors_total{kind}}, {@code delayq_outbox_quarantined_total}).
 */
public final class RelayMetrics {
    private final MeterRegistry registry;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestAgeMillis = new AtomicLong();
    private final Counter quarantined;

    public RelayMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("delayq.outbox.rows.pending", pending, AtomicLong::get)
                .description("Committed outbox rows not yet copied into Redis (as of the relay's last look)").register(registry);
        Gauge.builder("delayq.outbox.oldest.pending.age", oldestAgeMillis, a -> a.get() / 1000.0).baseUnit("seconds")
                .description("Age of the oldest outbox row not yet copied into Redis (0 when none)").register(registry);
        quarantined = Counter.builder("delayq.outbox.quarantined")
                .description("Rows moved to delayq_outbox_quarantine because they break a rule (bad id, due time, payload, options)")
                .register(registry);
    }

    void pending(long rows, long oldestAgeMs) {
        pending.set(rows);
        oldestAgeMillis.set(Math.max(0, oldestAgeMs));
    }

    void countRelayed(String op, String result) {
        Counter.builder("delayq.outbox.relayed").description("Outbox rows applied to Redis, by operation and Redis' answer")
                .tag("op", op).tag("result", result).register(registry).increment();
    }

    void error(String kind) {
        Counter.builder("delayq.outbox.errors").description("Relay rounds that failed (the rows stay and are retried), by kind")
                .tag("kind", kind).register(registry).increment();
    }

    void quarantined() {
        quarantined.increment();
    }

    public long pending() {
        return pending.get();
    }

    /** Rows applied, whatever Redis answered. */
    public double relayedTotal() {
        return registry.find("delayq.outbox.relayed").counters().stream().mapToDouble(Counter::count).sum();
    }

    public double relayed(String op, String result) {
        Counter c = registry.find("delayq.outbox.relayed").tag("op", op).tag("result", result).counter();
        return c == null ? 0 : c.count();
    }

    public double errors(String kind) {
        Counter c = registry.find("delayq.outbox.errors").tag("kind", kind).counter();
        return c == null ? 0 : c.count();
    }

    public double quarantinedTotal() {
        return quarantined.count();
    }
}
