package io.delayq.operator.workers;

import io.delayq.shard.ShardRange;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The recommended app.kubernetes.io labels, plus delayq's own, on every object the operator creates. */
public final class WorkerLabels {
    public static final String NAME = "app.kubernetes.io/name";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String COMPONENT = "app.kubernetes.io/component";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String QUEUE = "delayq.io/queue";
    public static final String SHARD_RANGE = "delayq.io/shard-range";

    public static final String WORKER_NAME = "delayq-worker";
    /** The outbox relay's pods: not worker pods, so the workers' Service, budget and scale selector leave them out. */
    public static final String OUTBOX_RELAY_NAME = "delayq-outbox-relay";
    public static final String OPERATOR_NAME = "delayq-operator";
    /** What the operator's informers select on, so they cache only objects it manages. */
    public static final String MANAGED_SELECTOR = MANAGED_BY + "=" + OPERATOR_NAME;

    private WorkerLabels() {
    }

    /** Labels of the DelayQueue's shared objects (Service, PodDisruptionBudget). */
    public static Map<String, String> common(String delayQueue, String queue) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME, WORKER_NAME);
        labels.put(INSTANCE, delayQueue);
        labels.put(COMPONENT, "worker");
        labels.put(PART_OF, "delayq");
        labels.put(MANAGED_BY, OPERATOR_NAME);
        labels.put(QUEUE, queue);
        return labels;
    }

    /** Labels of one worker Deployment and its pods. */
    public static Map<String, String> forRange(String delayQueue, String queue, ShardRange range) {
        Map<String, String> labels = common(delayQueue, queue);
        labels.put(SHARD_RANGE, range.from() + "-" + range.to());
        return labels;
    }

    /** Labels of the outbox relay's Deployment and pods. */
    public static Map<String, String> forOutboxRelay(String delayQueue, String queue) {
        Map<String, String> labels = common(delayQueue, queue);
        labels.put(NAME, OUTBOX_RELAY_NAME);
        labels.put(COMPONENT, "outbox-relay");
        return labels;
    }

    /** Selects the outbox relay's pods; immutable once the Deployment exists. */
    public static Map<String, String> outboxRelaySelector(String delayQueue) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME, OUTBOX_RELAY_NAME);
        labels.put(INSTANCE, delayQueue);
        return labels;
    }

    /** Selects every worker pod of a DelayQueue (Service, PodDisruptionBudget, scale subresource). */
    public static Map<String, String> allWorkers(String delayQueue) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(NAME, WORKER_NAME);
        labels.put(INSTANCE, delayQueue);
        return labels;
    }

    /** Selects the pods of one worker Deployment; immutable once the Deployment exists. */
    public static Map<String, String> rangeSelector(String delayQueue, ShardRange range) {
        Map<String, String> labels = allWorkers(delayQueue);
        labels.put(SHARD_RANGE, range.from() + "-" + range.to());
        return labels;
    }

    public static String asSelector(Map<String, String> labels) {
        return labels.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }
}
