package io.delayq.operator.autoscaling;

import java.time.Instant;

/** The replica count to apply, and the bookkeeping that goes to status for the next decision. */
public record ScalingDecision(int replicas, Instant scaleDownPendingSince, Instant lastScaleTime) {
}
