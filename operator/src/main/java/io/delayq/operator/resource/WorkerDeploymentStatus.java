package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One worker Deployment: its shard range, size and backlog. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class WorkerDeploymentStatus {
    @JsonPropertyDescription("Name of the Deployment.")
    private String name;

    @JsonPropertyDescription("First shard it owns.")
    private int shardFrom;

    @JsonPropertyDescription("Last shard it owns (inclusive).")
    private int shardTo;

    @JsonPropertyDescription("The shard count its workers are told (DELAYQ_SHARDS): the old layout's while the queue grows.")
    private Integer shards;

    @JsonPropertyDescription("True for a Deployment of the old layout only, deleted when the running migration has finished.")
    private Boolean retiring;

    @JsonPropertyDescription("Replicas the operator asked for.")
    private int replicas;

    @JsonPropertyDescription("Pods that pass their readiness probe.")
    private int readyReplicas;

    @JsonPropertyDescription("Backlog of its shards.")
    private BacklogStatus backlog;

    @JsonPropertyDescription("Forecast autoscaling: why it wants its replica count, naming the window or backlog figure that drove the decision.")
    private String scaleReason;

    @JsonPropertyDescription("When autoscaling last changed its replicas.")
    private String lastScaleTime;

    @JsonPropertyDescription("Since when autoscaling has wanted fewer replicas (scale-down waits for the stabilisation window).")
    private String scaleDownPendingSince;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public int getShardFrom() {
        return shardFrom;
    }

    public void setShardFrom(int shardFrom) {
        this.shardFrom = shardFrom;
    }

    public int getShardTo() {
        return shardTo;
    }

    public void setShardTo(int shardTo) {
        this.shardTo = shardTo;
    }

    public int getReplicas() {
        return replicas;
    }

    public void setReplicas(int replicas) {
        this.replicas = replicas;
    }

    public int getReadyReplicas() {
        return readyReplicas;
    }

    public void setReadyReplicas(int readyReplicas) {
        this.readyReplicas = readyReplicas;
    }

    public BacklogStatus getBacklog() {
        return backlog;
    }

    public void setBacklog(BacklogStatus backlog) {
        this.backlog = backlog;
    }

    public String getLastScaleTime() {
        return lastScaleTime;
    }

    public void setLastScaleTime(String lastScaleTime) {
        this.lastScaleTime = lastScaleTime;
    }

    public String getScaleDownPendingSince() {
        return scaleDownPendingSince;
    }

    public void setScaleDownPendingSince(String scaleDownPendingSince) {
        this.scaleDownPendingSince = scaleDownPendingSince;
    }

    public Integer getShards() {
        return shards;
    }

    public void setShards(Integer shards) {
        this.shards = shards;
    }

    public Boolean getRetiring() {
        return retiring;
    }

    public void setRetiring(Boolean retiring) {
        this.retiring = retiring;
    }

    public String getScaleReason() {
        return scaleReason;
    }

    public void setScaleReason(String scaleReason) {
        this.scaleReason = scaleReason;
    }
}
