package io.delayq.operator.workers;

import io.delayq.operator.autoscaling.Autoscaler;
import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.autoscaling.ScalingInput;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.delayq.operator.sharding.WorkerRange;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;

/**
 * The worker Deployments a DelayQueue should own, one per shard range, with their replica counts,
 * computed from the resource and what was observed: a pure function, unit-tested without a client.
 * The other owned objects have their own pure functions ({@link WorkerMetricsService#desired},
 * {@link WorkerDisruptionBudget#desired}), which depend on the resource alone.
 *
 * @param deployments desired worker Deployments by name, in shard order
 * @param decisions   the replica decision behind each Deployment, by name
 */
public record DesiredWorkers(Map<String, Deployment> deployments, Map<String, ScalingDecision> decisions) {

    /**
     * @param ranges         the shard split ({@code ShardPlan.ranges}), computed once per reconciliation
     * @param actual         the worker Deployments that exist now, by name (their replica counts feed autoscaling)
     * @param reading        the last look at Redis (backlog and forecast), or null when there was none
     * @param secretVersions resourceVersion of the Secrets the pods read, by name
     */
    public static DesiredWorkers compute(DelayQueue dq, List<ShardRange> ranges, QueueReading reading, Map<String, Deployment> actual,
                                         SortedMap<String, String> secretVersions, String defaultImage, Instant now) {
        return computeFor(dq, ranges.stream().map(r -> new WorkerRange(r, dq.getSpec().getShards(), false)).toList(), reading, actual,
                secretVersions, defaultImage, now);
    }

    /** The same for a planned layout ({@code ReshardPlan.workers()}), where each range carries the shard count its workers are told. */
    public static DesiredWorkers computeFor(DelayQueue dq, List<WorkerRange> workers, QueueReading reading, Map<String, Deployment> actual,
                                            SortedMap<String, String> secretVersions, String defaultImage, Instant now) {
        return computeFor(dq, workers, reading, MeasuredFleet.none(), actual, secretVersions, defaultImage, now);
    }

    /** As above, with what the cluster and the workers measured (Forecast autoscaling's lead time and throughput). */
    public static DesiredWorkers computeFor(DelayQueue dq, List<WorkerRange> workers, QueueReading reading, MeasuredFleet fleet,
                                            Map<String, Deployment> actual, SortedMap<String, String> secretVersions, String defaultImage,
                                            Instant now) {
        AutoscalingSpec policy = Objects.requireNonNullElseGet(dq.getSpec().getAutoscaling(), AutoscalingSpec::new);
        Map<String, Deployment> deployments = new LinkedHashMap<>();
        Map<String, ScalingDecision> decisions = new LinkedHashMap<>();
        for (WorkerRange worker : workers) {
            ShardRange range = worker.range();
            String name = WorkerNames.deployment(dq.getMetadata().getName(), range);
            Optional<WorkerDeploymentStatus> before = previous(dq.getStatus(), name);
            Deployment existing = actual.get(name);
            OptionalLong due = reading == null ? OptionalLong.empty()
                    : reading.backlogOf(range).map(s -> OptionalLong.of(s.due())).orElse(OptionalLong.empty());
            ScalingInput input = new ScalingInput(due,
                    existing == null || existing.getSpec() == null ? null : existing.getSpec().getReplicas(),
                    before.map(WorkerDeploymentStatus::getScaleDownPendingSince).map(Instant::parse).orElse(null),
                    before.map(WorkerDeploymentStatus::getLastScaleTime).map(Instant::parse).orElse(null),
                    now, reading == null ? Optional.empty() : reading.forecastOf(range), fleet);
            ScalingDecision decision = Autoscaler.decide(policy, dq.getSpec().getReplicas(), dq.getSpec().isSuspend(), input);
            decisions.put(name, decision);
            deployments.put(name, WorkerDeployment.desired(dq, worker, decision.replicas(), secretVersions, defaultImage));
        }
        return new DesiredWorkers(deployments, decisions);
    }

    private static Optional<WorkerDeploymentStatus> previous(DelayQueueStatus status, String name) {
        if (status == null || status.getWorkerDeployments() == null) {
            return Optional.empty();
        }
        return status.getWorkerDeployments().stream().filter(w -> name.equals(w.getName())).findFirst();
    }
}
