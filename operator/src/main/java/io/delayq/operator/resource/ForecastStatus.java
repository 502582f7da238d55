package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.ArrayList;
import java.util.List;

/** The queue's due forecast at the last check: what will fall due, before it is due (docs/autoscaling.md). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ForecastStatus {
    @JsonPropertyDescription("Tasks not yet due that fall due within each window from now, shortest window first.")
    private List<ForecastWindowStatus> windows = new ArrayList<>();

    @JsonPropertyDescription("When the next task not yet due is due (RFC 3339); absent when no task waits for a future time.")
    private String nextDueAt;

    @JsonPropertyDescription("When the operator read it (RFC 3339).")
    private String observedAt;

    @JsonPropertyDescription("Forecast mode: how long before they are due pods are asked for; spec.autoscaling.warmup, or the measured pod start-up plus one check interval where that is longer.")
    private String leadTime;

    @JsonPropertyDescription("The longest time a worker pod took from creation to Ready, as the cluster last reported it; absent until a pod became Ready.")
    private String podStartup;

    @JsonPropertyDescription("Tasks one replica settled per second while its range had more due work than it took, from the workers' heartbeats (averaged over busy spells); absent until measured. Forecast mode uses it in place of targetTasksPerReplicaPerSecond.")
    private Double tasksPerReplicaPerSecond;

    public List<ForecastWindowStatus> getWindows() {
        return windows;
    }

    public void setWindows(List<ForecastWindowStatus> windows) {
        this.windows = windows;
    }

    public String getNextDueAt() {
        return nextDueAt;
    }

    public void setNextDueAt(String nextDueAt) {
        this.nextDueAt = nextDueAt;
    }

    public String getObservedAt() {
        return observedAt;
    }

    public void setObservedAt(String observedAt) {
        this.observedAt = observedAt;
    }

    public String getLeadTime() {
        return leadTime;
    }

    public void setLeadTime(String leadTime) {
        this.leadTime = leadTime;
    }

    public String getPodStartup() {
        return podStartup;
    }

    public void setPodStartup(String podStartup) {
        this.podStartup = podStartup;
    }

    public Double getTasksPerReplicaPerSecond() {
        return tasksPerReplicaPerSecond;
    }

    public void setTasksPerReplicaPerSecond(Double tasksPerReplicaPerSecond) {
        this.tasksPerReplicaPerSecond = tasksPerReplicaPerSecond;
    }
}
