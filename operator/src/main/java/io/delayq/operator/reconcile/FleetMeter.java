package io.delayq.operator.reconcile;

import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.autoscaling.PodStartup;
import io.delayq.operator.autoscaling.ReplicaThroughput;
import io.delayq.operator.redis.QueueReading;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps each queue's last look at its workers, so the next look can tell how many tasks a replica settled in
 * between ({@link ReplicaThroughput}); what it measures is remembered in the status, not here, so an operator that
 * restarts loses one interval, not the figures.
 */
final class FleetMeter {
    private final Map<String, ReplicaThroughput.Look> lastLooks = new ConcurrentHashMap<>();
    /** The pod start-up the worker pods show now, over what the last status remembered (the lead time to read with). */
    MeasuredFleet beforeLook(MeasuredFleet remembered, List<Pod> workerPods) {
        return remembered.withStartup(PodStartup.longest(workerPods));
    }

    /**
     * Adds the throughput between the last look and this one.
     *
     * @param specRate the spec'd per-replica throughput, standing in until one is measured
     */
    MeasuredFleet afterLook(String queueKey, MeasuredFleet fleet, QueueReading look, double specRate) {
        if (look == null || look.problem() != null) {
            return fleet;
        }
        ReplicaThroughput.Look now = new ReplicaThroughput.Look(look.backlog(), look.workers());
        ReplicaThroughput.Look before = lastLooks.put(queueKey, now);
        if (before == null) {
            return fleet;
        }
        double expected = fleet.tasksPerReplicaPerSecond().orElse(specRate);
        return fleet.withThroughput(ReplicaThroughput.between(before, now, expected));
    }

    void forget(String queueKey) {
        lastLooks.remove(queueKey);
    }
}
