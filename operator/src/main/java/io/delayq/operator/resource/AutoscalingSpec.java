package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Internal: the operator sizes each worker Deployment from its own due backlog. External: an
 * HPA or KEDA scales the DelayQueue through its scale subresource (spec.replicas) and the
 * operator only passes that number on. Disabled: spec.replicas, set by hand.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.minReplicas <= self.maxReplicas",
        message = "spec.autoscaling.minReplicas must not exceed spec.autoscaling.maxReplicas")
public class AutoscalingSpec {
    @JsonPropertyDescription("Internal (default), External or Disabled.")
    @Default("Internal")
    private AutoscalingMode mode = AutoscalingMode.Internal;

    @JsonPropertyDescription("Fewest replicas of each worker Deployment under Internal autoscaling (0 lets an idle range scale to zero; it wakes within one backlog check).")
    @Default("1")
    @Min(0)
    @Max(1000)
    private int minReplicas = 1;

    @JsonPropertyDescription("Most replicas of each worker Deployment under Internal autoscaling.")
    @Default("10")
    @Min(1)
    @Max(1000)
    private int maxReplicas = 10;

    @JsonPropertyDescription("Due backlog one worker pod is expected to absorb: replicas = ceil(due / targetDuePerReplica).")
    @Default("1000")
    @Min(1)
    private long targetDuePerReplica = 1000;

    @JsonPropertyDescription("How long a lower replica count must be wanted before a Deployment scales down, e.g. 5m.")
    @Default("5m")
    @Pattern(Durations.PATTERN)
    private String scaleDownStabilization = "5m";

    public AutoscalingMode getMode() {
        return mode;
    }

    public void setMode(AutoscalingMode mode) {
        this.mode = mode;
    }

    public int getMinReplicas() {
        return minReplicas;
    }

    public void setMinReplicas(int minReplicas) {
        this.minReplicas = minReplicas;
    }

    public int getMaxReplicas() {
        return maxReplicas;
    }

    public void setMaxReplicas(int maxReplicas) {
        this.maxReplicas = maxReplicas;
    }

    public long getTargetDuePerReplica() {
        return targetDuePerReplica;
    }

    public void setTargetDuePerReplica(long targetDuePerReplica) {
        this.targetDuePerReplica = targetDuePerReplica;
    }

    public String getScaleDownStabilization() {
        return scaleDownStabilization;
    }

    public void setScaleDownStabilization(String scaleDownStabilization) {
        this.scaleDownStabilization = scaleDownStabilization;
    }
}
