package io.delayq.operator.autoscaling;

import io.delayq.backlog.DueForecast;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a replica decision for one worker Deployment depends on.
 *
 * @param due                   the range's due backlog, empty when Redis could not be read
 * @param currentReplicas       the Deployment's replicas now, null when it does not exist yet
 * @param scaleDownPendingSince since when a lower count has been wanted (from status), or null
 * @param lastScaleTime         when autoscaling last changed the count (from status), or null
 * @param forecast              the range's due forecast (Forecast mode), empty when Redis could not be read
 * @param fleet                 what the cluster and the workers measured (Forecast mode)
 */
public record ScalingInput(OptionalLong due, Integer currentReplicas, Instant scaleDownPendingSince,
                           Instant lastScaleTime, Instant now, Optional<DueForecast> forecast, MeasuredFleet fleet) {

    public ScalingInput {
        fleet = fleet == null ? MeasuredFleet.none() : fleet;
    }

    /** Nothing measured: the spec'd figures decide. */
    public ScalingInput(OptionalLong due, Integer currentReplicas, Instant scaleDownPendingSince, Instant lastScaleTime, Instant now,
                        Optional<DueForecast> forecast) {
        this(due, currentReplicas, scaleDownPendingSince, lastScaleTime, now, forecast, MeasuredFleet.none());
    }

    /** Without a forecast: what Internal mode reads. */
    public ScalingInput(OptionalLong due, Integer currentReplicas, Instant scaleDownPendingSince, Instant lastScaleTime, Instant now) {
        this(due, currentReplicas, scaleDownPendingSince, lastScaleTime, now, Optional.empty());
    }
}
