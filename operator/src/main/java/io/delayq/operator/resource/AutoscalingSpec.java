package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Internal: the operator sizes each worker Deployment from its own due backlog. Forecast: from that backlog and
 * from the tasks due within the coming {@code horizon}, so pods are up {@code warmup} before they are needed.
 * External: an HPA or KEDA scales the DelayQueue through its scale subresource (spec.replicas) and the
 * operator only passes that number on. Disabled: spec.replicas, set by hand. docs/autoscaling.md explains each.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.minReplicas <= self.maxReplicas",
        message = "spec.autoscaling.minReplicas must not exceed spec.autoscaling.maxReplicas")
// CEL reads Go durations only (no days, no ISO-8601): there the rule is checked at admission, elsewhere by the
// operator (SpecRules), which then touches nothing.
@ValidationRule(value = "!has(self.warmup) || !has(self.horizon) || !self.warmup.matches('^[0-9]+(ms|s|m|h)$')"
        + " || !self.horizon.matches('^[0-9]+(ms|s|m|h)$') || duration(self.horizon) >= duration(self.warmup)",
        message = "spec.autoscaling.horizon must not be shorter than spec.autoscaling.warmup: the forecast must look at least as far ahead as pods take to start")
@ValidationRule(value = "!has(self.targetTasksPerReplicaPerSecond) || self.targetTasksPerReplicaPerSecond > 0.0",
        message = "spec.autoscaling.targetTasksPerReplicaPerSecond must be above 0")
public class AutoscalingSpec {
    @JsonPropertyDescription("Internal (default), Forecast, External or Disabled.")
    @Default("Internal")
    private AutoscalingMode mode = AutoscalingMode.Internal;

    @JsonPropertyDescription("Fewest replicas of each worker Deployment under Internal or Forecast autoscaling (0 lets an idle range scale to zero; Internal wakes it within one backlog check, Forecast warmup before its next due task).")
    @Default("1")
    @Min(0)
    @Max(1000)
    private int minReplicas = 1;

    @JsonPropertyDescription("Most replicas of each worker Deployment under Internal or Forecast autoscaling.")
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

    @JsonPropertyDescription("Forecast: how long a new worker pod takes to start and claim tasks (1s to 1h), e.g. 60s. Pods are started this long before the tasks that need them are due.")
    @Default("60s")
    @Pattern(Durations.PATTERN)
    private String warmup = "60s";

    @JsonPropertyDescription("Forecast: how far ahead to look (at least warmup, at most 1d), e.g. 15m. The peak due rate over the windows from warmup to horizon sizes the Deployment.")
    @Default("15m")
    @Pattern(Durations.PATTERN)
    private String horizon = "15m";

    @JsonPropertyDescription("Forecast: tasks per second one worker pod fires (above 0); the forecast's due rate divided by it is the replicas wanted.")
    @Default("100.0")
    private double targetTasksPerReplicaPerSecond = 100.0;

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

    public String getWarmup() {
        return warmup;
    }

    public void setWarmup(String warmup) {
        this.warmup = warmup;
    }

    public String getHorizon() {
        return horizon;
    }

    public void setHorizon(String horizon) {
        this.horizon = horizon;
    }

    public double getTargetTasksPerReplicaPerSecond() {
        return targetTasksPerReplicaPerSecond;
    }

    public void setTargetTasksPerReplicaPerSecond(double targetTasksPerReplicaPerSecond) {
        this.targetTasksPerReplicaPerSecond = targetTasksPerReplicaPerSecond;
    }

    public String getScaleDownStabilization() {
        return scaleDownStabilization;
    }

    public void setScaleDownStabilization(String scaleDownStabilization) {
        this.scaleDownStabilization = scaleDownStabilization;
    }
}
