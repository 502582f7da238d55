package io.delayq.operator.workers;

import io.delayq.shard.ShardRange;

/**
 * Names of the objects a DelayQueue owns. A Deployment's name carries its shard range, so a new
 * split (another shardsPerWorker) gives new names and the old Deployments are recognisably stale.
 * With a resource name of at most 40 characters (a CRD rule) every name fits in 63.
 */
public final class WorkerNames {

    private WorkerNames() {
    }

    public static String deployment(String delayQueue, ShardRange range) {
        return delayQueue + "-worker-" + range.from() + "-" + range.to();
    }

    /** The Deployment of the outbox relay in mode Deployment (spec.outbox.relay). */
    public static String outboxRelay(String delayQueue) {
        return delayQueue + "-outbox-relay";
    }

    public static String metricsService(String delayQueue) {
        return delayQueue + "-worker-metrics";
    }

    public static String disruptionBudget(String delayQueue) {
        return delayQueue + "-worker";
    }
}
