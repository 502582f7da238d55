package io.delayq.bench.fleet;

import io.delayq.DurationText;
import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;

import java.time.Duration;

/**
 * The spec.autoscaling both modes get: the same bounds, backlog target and stabilisation; Forecast adds its warmup,
 * horizon and the per-replica throughput.
 */
public record FleetPolicy(Duration warmup, Duration horizon, Duration stabilization, long targetDuePerReplica, double tasksPerReplicaPerSecond) {

    public AutoscalingSpec spec(AutoscalingMode mode, int min, int max) {
        AutoscalingSpec spec = new AutoscalingSpec();
        spec.setMode(mode);
        spec.setMinReplicas(min);
        spec.setMaxReplicas(max);
        spec.setTargetDuePerReplica(targetDuePerReplica);
        spec.setScaleDownStabilization(DurationText.format(stabilization));
        spec.setWarmup(DurationText.format(warmup));
        spec.setHorizon(DurationText.format(horizon));
        spec.setTargetTasksPerReplicaPerSecond(tasksPerReplicaPerSecond);
        ForecastPolicy.of(spec); // refuses a warmup or horizon the operator would refuse
        return spec;
    }
}
