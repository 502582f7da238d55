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
 *   <li>Internal: ceil(due / targetDuePerReplica) within [min, max].</li>
 *   <li>Forecast: the most of that backlog rule and what the due forecast asks for ({@link ForecastNeed}),
 *       within [min, max]; the decision says which window or figure drove it.</li>
 * </ul>
 * Under Internal and Forecast, scaling up happens at once; scaling down only after a lower count has been wanted
 * for the whole stabilisation window, so a backlog that drains between two checks (or a forecast wave that was
 * cancelled) does not make the fleet flap. Without a reading of Redis the count stays as it is.
 */
public final class Autoscaler {

    private Autoscaler() {
    }

    public static ScalingDecision decide(AutoscalingSpec policy, Integer specReplicas, boolean suspended, ScalingInput in) {
        if (suspended) {
            return new ScalingDecision(0, null, in.lastScaleTime());
        }
        AutoscalingMode mode = policy.getMode();
        if (mode != AutoscalingMode.Internal && mode != AutoscalingMode.Forecast) {
            return new ScalingDecision(specReplicas == null ? 1 : specReplicas, null, in.lastScaleTime());
        }
        int min = policy.getMinReplicas();
        int max = Math.max(min, policy.getMaxReplicas());
        Integer current = in.currentReplicas();
        boolean forecast = mode == AutoscalingMode.Forecast;
        if (in.due().isEmpty() || forecast && in.forecast().isEmpty()) {
            int keep = current == null ? min : current;
            ScalingDecision kept = new ScalingDecision(keep, in.scaleDownPendingSince(), in.lastScaleTime());
            return forecast ? kept.because("no reading of Redis: keeping " + keep + " replicas") : kept;
        }
        if (!forecast) {
            return settle(policy, wanted(in.due().getAsLong(), policy.getTargetDuePerReplica(), min, max), in);
        }
        ForecastNeed need = ForecastNeed.of(ForecastPolicy.of(policy).with(in.fleet()), in.due().getAsLong(), policy.getTargetDuePerReplica(),
                in.forecast().get());
        int wanted = (int) Math.max(min, Math.min(max, need.replicas()));
        String reason = need.reason() + (need.replicas() > max ? "; capped at maxReplicas " + max
                : need.replicas() < min ? "; held at minReplicas " + min : "");
        ScalingDecision decision = settle(policy, wanted, in);
        if (decision.scaleDownPendingSince() != null) {
            reason += "; down to " + wanted + " once wanted for " + policy.getScaleDownStabilization();
        }
        return decision.because(reason);
    }

    /**
     * The count to apply for {@code wanted}: up (or back within the bounds) at once, down only once the lower count
     * has been wanted for the whole stabilisation window.
     */
    private static ScalingDecision settle(AutoscalingSpec policy, int wanted, ScalingInput in) {
        int min = policy.getMinReplicas();
        int max = Math.max(min, policy.getMaxReplicas());
        Integer current = in.currentReplicas();
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
        long replicas = ceilDiv(due, Math.max(1, targetPerReplica));
        return (int) Math.max(min, Math.min(max, replicas));
    }

    static long ceilDiv(long amount, long per) {
        return amount / per + (amount % per == 0 ? 0 : 1);
    }
}
