package io.delayq.operator.metrics;

import io.delayq.backlog.QueueStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * The backlog gauges on the operator's /metrics, one series per DelayQueue and worker Deployment:
 * {@code delayq_queue_{scheduled,due,inflight,dead}_tasks} and {@code delayq_queue_oldest_overdue_seconds},
 * labelled {namespace, delayqueue, queue, worker}. They are what an HPA (through an adapter) or KEDA
 * scales on: {@code sum(delayq_queue_due_tasks{namespace="ns",delayqueue="name"})}.
 * The series of a removed worker Deployment or DelayQueue are removed too.
 */
public final class QueueMetrics {
    private final MeterRegistry registry;
    /** namespace/name → worker → its current numbers and meters. */
    private final Map<String, Map<String, Series>> series = new ConcurrentHashMap<>();

    public QueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Sets the numbers of every worker Deployment of a DelayQueue, and drops workers not listed. */
    public synchronized void update(String namespace, String delayQueue, String queue, Map<String, QueueStats> byWorker) {
        Map<String, Series> workers = series.computeIfAbsent(namespace + "/" + delayQueue, k -> new ConcurrentHashMap<>());
        for (Map.Entry<String, QueueStats> e : byWorker.entrySet()) {
            Tags tags = Tags.of("namespace", namespace, "delayqueue", delayQueue, "queue", queue, "worker", e.getKey());
            workers.computeIfAbsent(e.getKey(), w -> new Series(registry, tags)).stats.set(e.getValue());
        }
        Set<String> gone = Set.copyOf(workers.keySet());
        for (String worker : gone) {
            if (!byWorker.containsKey(worker)) {
                workers.remove(worker).remove(registry);
            }
        }
    }

    /** Drops every series of the workers not in {@code keep}, for a new shard split while Redis is unreachable. */
    public synchronized void retain(String namespace, String delayQueue, Set<String> keep) {
        Map<String, Series> workers = series.get(namespace + "/" + delayQueue);
        if (workers != null) {
            for (String worker : Set.copyOf(workers.keySet())) {
                if (!keep.contains(worker)) {
                    workers.remove(worker).remove(registry);
                }
            }
        }
    }

    public synchronized void remove(String namespace, String delayQueue) {
        Map<String, Series> workers = series.remove(namespace + "/" + delayQueue);
        if (workers != null) {
            workers.values().forEach(s -> s.remove(registry));
        }
    }

    private static final class Series {
        final AtomicReference<QueueStats> stats = new AtomicReference<>();
        final List<Meter> meters = new ArrayList<>();

        Series(MeterRegistry registry, Tags tags) {
            gauge(registry, "delayq.queue.scheduled.tasks", "Tasks waiting for a future due time", tags, QueueStats::scheduled);
            gauge(registry, "delayq.queue.due.tasks", "Tasks due now and not yet claimed", tags, QueueStats::due);
            gauge(registry, "delayq.queue.inflight.tasks", "Tasks claimed and not yet acknowledged", tags, QueueStats::inflight);
            gauge(registry, "delayq.queue.dead.tasks", "Tasks in the dead-letter set", tags, QueueStats::dead);
            gauge(registry, "delayq.queue.oldest.overdue.seconds", "How long the oldest unclaimed due task has been overdue",
                    tags, s -> s.oldestOverdueMillis() / 1000.0);
        }

        private void gauge(MeterRegistry registry, String name, String help, Tags tags, ToDoubleFunction<QueueStats> value) {
            meters.add(Gauge.builder(name, stats, ref -> ref.get() == null ? Double.NaN : value.applyAsDouble(ref.get()))
                    .description(help).tags(tags).strongReference(true).register(registry));
        }

        void remove(MeterRegistry registry) {
            meters.forEach(registry::remove);
        }
    }
}
