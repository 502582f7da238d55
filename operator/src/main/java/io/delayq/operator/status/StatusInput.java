package io.delayq.operator.status;

import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import io.delayq.layout.Layout;
import io.delayq.operator.resharding.MigrationJob;
import io.delayq.operator.resharding.ReshardPlan;
import io.delayq.operator.sharding.WorkerRange;

import java.time.Instant;
import java.util.Optional;
import java.util.List;
import java.util.Map;

/**
 * Everything the status is computed from.
 *
 * @param deployments the worker Deployments as the cluster has them, by name
 * @param decisions   the replica decision of each range's Deployment, by name
 * @param reading     the last look at Redis, or null when the operator could not look (no Secret)
 * @param problems    run-time problems, worst first
 * @param plan        the shard layout planned for the Deployments ({@code ranges} are its ranges)
 * @param layout      the layout the queue's meta hash recorded at this look, or null
 * @param job         the operator's mover job of this queue, if it has one
 * @param fleet       the pod start-up and per-replica throughput measured so far
 */
public record StatusInput(DelayQueue resource, List<ShardRange> ranges, Map<String, Deployment> deployments,
                          Map<String, ScalingDecision> decisions, QueueReading reading, List<Problem> problems, Instant now,
                          ReshardPlan plan, Layout layout, Optional<MigrationJob.State> job, MeasuredFleet fleet) {

    public StatusInput {
        fleet = fleet == null ? MeasuredFleet.none() : fleet;
    }

    public StatusInput(DelayQueue resource, List<ShardRange> ranges, Map<String, Deployment> deployments,
                       Map<String, ScalingDecision> decisions, QueueReading reading, List<Problem> problems, Instant now,
                       ReshardPlan plan, Layout layout, Optional<MigrationJob.State> job) {
        this(resource, ranges, deployments, decisions, reading, problems, now, plan, layout, job, MeasuredFleet.none());
    }

    /** A queue whose Deployments are the spec's layout, no migration in sight. */
    public StatusInput(DelayQueue resource, List<ShardRange> ranges, Map<String, Deployment> deployments,
                       Map<String, ScalingDecision> decisions, QueueReading reading, List<Problem> problems, Instant now) {
        this(resource, ranges, deployments, decisions, reading, problems, now, null, null, Optional.empty());
    }

    /** Whether a range's Deployment belongs to the old layout only (retired when the migration ends). */
    public boolean retiring(ShardRange range) {
        return plan != null && plan.workers().stream().anyMatch(w -> w.retiring() && w.range().equals(range));
    }

    /** The shard count a range's workers are told. */
    public int shardsOf(ShardRange range) {
        return plan == null ? resource.getSpec().getShards()
                : plan.workers().stream().filter(w -> w.range().equals(range)).findFirst().map(WorkerRange::shards)
                        .orElse(resource.getSpec().getShards());
    }
}
