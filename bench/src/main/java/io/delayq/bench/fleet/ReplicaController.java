package io.delayq.bench.fleet;

import io.delayq.backlog.DueForecast;
import io.delayq.operator.autoscaling.Autoscaler;
import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.autoscaling.ScalingInput;
import io.delayq.operator.resource.AutoscalingSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One worker Deployment's replica count across checks, decided by the operator's own {@link Autoscaler#decide} and
 * carrying from check to check what the operator carries in the DelayQueue's status (the pending scale-down, the
 * last scale time).
 */
public final class ReplicaController {
    private final AutoscalingSpec policy;
    private final MeasuredFleet fleet;
    private Integer replicas;
    private Instant pendingSince;
    private Instant lastScale;
    private int changes;
    private String reason;

    /**
     * @param fleet what the operator would have measured: the pods' start-up (it reads it from the cluster) and its
     *              own check interval; the per-replica throughput stays the spec'd one
     */
    public ReplicaController(AutoscalingSpec policy, int initialReplicas, MeasuredFleet fleet) {
        this.policy = policy;
        this.fleet = fleet;
        this.replicas = initialReplicas;
    }

    /** One check: the range's due backlog and forecast as Redis answered them at {@code now}; returns the replicas to run. */
    public int check(long now, long due, DueForecast forecast) {
        ScalingDecision d = Autoscaler.decide(policy, replicas, false, new ScalingInput(OptionalLong.of(due), replicas, pendingSince, lastScale,
                Instant.ofEpochMilli(now), Optional.of(forecast), fleet));
        if (d.replicas() != replicas) {
            changes++;
        }
        replicas = d.replicas();
        pendingSince = d.scaleDownPendingSince();
        lastScale = d.lastScaleTime();
        reason = d.reason();
        return replicas;
    }

    public int replicas() {
        return replicas;
    }

    /** How often the count changed. */
    public int changes() {
        return changes;
    }

    /** The last decision's reason (Forecast mode gives one, Internal none). */
    public String reason() {
        return reason;
    }

    /** What the operator measures of a fleet whose pods start in {@code startupMs}, checked every {@code checkIntervalMs}. */
    public static MeasuredFleet measured(long startupMs, long checkIntervalMs) {
        return new MeasuredFleet(Optional.of(Duration.ofMillis(startupMs)), OptionalDouble.empty(), Duration.ofMillis(checkIntervalMs));
    }
}
