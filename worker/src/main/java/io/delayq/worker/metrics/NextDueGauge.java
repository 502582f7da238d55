package io.delayq.worker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code delayq_next_due_timestamp_seconds{queue,shard}}: when the shard's next waiting task is due, in seconds since
 * the epoch. The series is absent while nothing waits for a future time (and before the first reading): a placeholder
 * such as 0 or +Inf would be a false time to {@code min by (queue)}, {@code time() - …} and alerts alike, whereas an
 * absent series drops out of {@code min} and answers {@code absent(…)}.
 */
final class NextDueGauge {
    private final MeterRegistry registry;
    private final Gauge.Builder<AtomicLong> builder;
    private final AtomicLong dueAtMillis = new AtomicLong();
    private Gauge registered;

    NextDueGauge(MeterRegistry registry, String queue, String shard) {
        this.registry = registry;
        this.builder = Gauge.builder("delayq.next.due.timestamp", dueAtMillis, v -> v.get() / 1000.0)
                .description("When the shard's next waiting task is due (seconds since the epoch); absent while none waits")
                .baseUnit("seconds").tag("queue", queue).tag("shard", shard);
    }

    /** @param epochMillis the next due time, or a negative number when no task waits for a future time */
    synchronized void set(long epochMillis) {
        if (epochMillis < 0) {
            if (registered != null) {
                registry.remove(registered);
                registered = null;
            }
            return;
        }
        dueAtMillis.set(epochMillis);
        if (registered == null) {
            registered = builder.register(registry);
        }
    }
}
