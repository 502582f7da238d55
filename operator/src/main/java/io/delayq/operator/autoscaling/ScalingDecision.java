package io.delayq.operator.autoscaling;

import java.time.Instant;

/**
 * The replica count to apply, and the bookkeeping that goes to status for the next decision.
 *
 * @param reason why autoscaling wants this count, for a person (status and the scaling Event); null where the
 *               mode gives none (Disabled, External, Internal)
 */
public record ScalingDecision(int replicas, Instant scaleDownPendingSince, Instant lastScaleTime, String reason) {

    public ScalingDecision(int replicas, Instant scaleDownPendingSince, Instant lastScaleTime) {
        this(replicas, scaleDownPendingSince, lastScaleTime, null);
    }

    ScalingDecision because(String why) {
        return new ScalingDecision(replicas, scaleDownPendingSince, lastScaleTime, why);
    }
}
