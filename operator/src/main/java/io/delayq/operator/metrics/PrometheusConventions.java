package io.delayq.operator.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * Keeps the operator's /metrics within Prometheus' conventions, as `promtool check metrics` checks
 * them: the Java Operator SDK registers its meters without a description (no HELP text), and two
 * of Micrometer's ProcessorMetrics meters break the naming rules (system_cpu_count is a gauge named
 * like a count, process_cpu_time_ns_total has an abbreviated unit). Apply before binding meters.
 */
public final class PrometheusConventions {
    private static final String SDK_PREFIX = "operator.sdk.";

    private PrometheusConventions() {
    }

    public static void apply(MeterRegistry registry) {
        registry.config()
                .meterFilter(MeterFilter.deny(id -> id.getName().equals("system.cpu.count") || id.getName().equals("process.cpu.time")))
                .meterFilter(new MeterFilter() {
                    @Override
                    public Meter.Id map(Meter.Id id) {
                        if (id.getDescription() != null || !id.getName().startsWith(SDK_PREFIX)) {
                            return id;
                        }
                        String what = id.getName().substring(SDK_PREFIX.length()).replace('.', ' ');
                        return new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
                                "Java Operator SDK: " + what, id.getType());
                    }
                });
    }
}
