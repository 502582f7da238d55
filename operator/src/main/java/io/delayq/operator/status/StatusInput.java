package io.delayq.operator.status;

import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything the status is computed from.
 *
 * @param deployments the worker Deployments as the cluster has them, by name
 * @param decisions   the replica decision of each range's Deployment, by name
 * @param reading     the last look at Redis, or null when the operator could not look (no Secret)
 * @param problems    run-time problems, worst first
 */
public record StatusInput(DelayQueue resource, List<ShardRange> ranges, Map<String, Deployment> deployments,
                          Map<String, ScalingDecision> decisions, QueueReading reading, List<Problem> problems, Instant now) {
}
