package io.delayq.operator.workers;

import io.delayq.operator.autoscaling.Autoscaler;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.autoscaling.ScalingInput;
import io.delayq.operator.redis.ProbeResult;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.delayq.operator.sharding.ShardPlan;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;

/**
 * Everything a DelayQueue should own, computed in one go from the resource and what was observed:
 * a pure function, so that every rule of the desired state is unit-tested without a client.
 *
 * @param deployments desired worker Deployments by name, in shard order
 * @param decisions   the replica decision behind each Deployment, by name
 */
public record DesiredWorkers(List<ShardRange> ranges, Map<String, Deployment> deployments,
                             Map<String, ScalingDecision> decisions, Service metricsService,
                             PodDisruptionBudget disruptionBudget) {

    /**
     * @param actual         the worker Deployments that exist now, by name (their replica counts feed autoscaling)
     * @param probe          the last look at Redis (backlog), or null when there was none
     * @param secretVersions resourceVersion of the Secrets the pods read, by name
     * @throws IllegalArgumentException naming the spec field when the shard split is impossible
     */
    public static DesiredWorkers compute(DelayQueue dq, ProbeResult probe, Map<String, Deployment> actual,
                                         SortedMap<String, String> secretVersions, String defaultImage, Instant now) {
        List<ShardRange> ranges = ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker());
        AutoscalingSpec policy = Objects.requireNonNullElseGet(dq.getSpec().getAutoscaling(), AutoscalingSpec::new);
        Map<String, Deployment> deployments = new LinkedHashMap<>();
        Map<String, ScalingDecision> decisions = new LinkedHashMap<>();
        for (ShardRange range : ranges) {
            String name = WorkerNames.deployment(dq.getMetadata().getName(), range);
            Optional<WorkerDeploymentStatus> before = previous(dq.getStatus(), name);
            Deployment existing = actual.get(name);
            OptionalLong due = probe == null ? OptionalLong.empty()
                    : probe.backlogOf(range).map(s -> OptionalLong.of(s.due())).orElse(OptionalLong.empty());
            ScalingInput input = new ScalingInput(due,
                    existing == null || existing.getSpec() == null ? null : existing.getSpec().getReplicas(),
                    before.map(WorkerDeploymentStatus::getScaleDownPendingSince).map(Instant::parse).orElse(null),
                    before.map(WorkerDeploymentStatus::getLastScaleTime).map(Instant::parse).orElse(null),
                    now);
            ScalingDecision decision = Autoscaler.decide(policy, dq.getSpec().getReplicas(), dq.getSpec().isSuspend(), input);
            decisions.put(name, decision);
            deployments.put(name, WorkerDeployment.desired(dq, range, decision.replicas(), secretVersions, defaultImage));
        }
        return new DesiredWorkers(ranges, deployments, decisions, WorkerMetricsService.desired(dq), WorkerDisruptionBudget.desired(dq));
    }

    private static Optional<WorkerDeploymentStatus> previous(DelayQueueStatus status, String name) {
        if (status == null || status.getWorkerDeployments() == null) {
            return Optional.empty();
        }
        return status.getWorkerDeployments().stream().filter(w -> name.equals(w.getName())).findFirst();
    }
}
