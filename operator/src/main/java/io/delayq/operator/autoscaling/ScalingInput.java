package io.delayq.operator.autoscaling;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * What a replica decision for one worker Deployment depends on.
 *
 * @param due                   the range's due backlog, empty when Redis could not be read
 * @param currentReplicas       the Deployment's replicas now, null when it does not exist yet
 * @param scaleDownPendingSince since when a lower count has been wanted (from status), or null
 * @param lastScaleTime         when autoscaling last changed the count (from status), or null
 */
public record ScalingInput(OptionalLong due, Integer currentReplicas, Instant scaleDownPendingSince,
                           Instant lastScaleTime, Instant now) {
}
