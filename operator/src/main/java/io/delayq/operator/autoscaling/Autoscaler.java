package io.delayq.operator.autoscaling;

import io.delayq.DurationText;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;

import java.time.Duration;

/**
 * Replica arithmetic for one worker Deployment.
 * <ul>
 *   <li>Suspended: zero.</li>
 *   <li>Disabled and External: spec.replicas. Under External an HPA or KEDA writes that number
 *       through the scale subresource; the operator passes it on and never computes its own.</li>
 *   <li>Internal: ceil(due / targetDuePerReplica) within [min, max]. Scaling up happens at once;
 *       scaling down only after a lower count has been wanted for the whole stabilisation window,
 *       so a backlog that drains between two checks does not make the fleet flap. Without a
 *       backlog reading (Redis unreachable) the count stays as it is.</li>
 * </ul>
 */
public final class Autoscaler {

    private Autoscaler() {
    }

    public static ScalingDecision decide(AutoscalingSpec policy, Integer specReplicas, boolean suspended, ScalingInput in) {
        if (suspended) {
            return new ScalingDecision(0, null, in.lastScaleTime());
        }
        if (policy.getMode() != AutoscalingMode.Internal) {
            return new ScalingDecision(specReplicas == null ? 1 : specReplicas, null, in.lastScaleTime());
        }
        int min = policy.getMinReplicas();
        int max = Math.max(min, policy.getMaxReplicas());
        Integer current = in.currentReplicas();
        if (in.due().isEmpty()) {
            int keep = current == null ? min : current;
            return new ScalingDecision(keep, in.scaleDownPendingSince(), in.lastScaleTime());
        }
        int wanted = wanted(in.due().getAsLong(), policy.getTargetDuePerReplica(), min, max);
        if (current == null) {
            return new ScalingDecision(wanted, null, in.lastScaleTime());
        }
        // A count outside the bounds (bounds changed, or someone scaled the Deployment by hand) is
        // corrected at once: the bounds are the user's explicit wish.
        if (wanted > current || current > max || current < min) {
            return wanted == current ? new ScalingDecision(current, null, in.lastScaleTime())
                    : new ScalingDecision(wanted, null, in.now());
        }
        if (wanted == current) {
            return new ScalingDecision(current, null, in.lastScaleTime());
        }
        Duration window = DurationText.require("spec.autoscaling.scaleDownStabilization", policy.getScaleDownStabilization());
        if (in.scaleDownPendingSince() == null) {
            return new ScalingDecision(current, in.now(), in.lastScaleTime());
        }
        if (!in.scaleDownPendingSince().plus(window).isAfter(in.now())) {
            return new ScalingDecision(wanted, null, in.now());
        }
        return new ScalingDecision(current, in.scaleDownPendingSince(), in.lastScaleTime());
    }

    /** ceil(due / target) within [min, max]. */
    public static int wanted(long due, long targetPerReplica, int min, int max) {
        long target = Math.max(1, targetPerReplica);
        long replicas = due / target + (due % target == 0 ? 0 : 1);
        return (int) Math.max(min, Math.min(max, replicas));
    }
}
