package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;

import java.util.ArrayList;
import java.util.List;

/** What the operator observed. Written only by the operator, through the status subresource. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DelayQueueStatus {
    @JsonPropertyDescription("The metadata.generation this status describes.")
    private Long observedGeneration;

    @JsonPropertyDescription("One word for kubectl get: Resharding while the queue grows to spec.shards, else Ready, Progressing, Degraded or Suspended.")
    private String phase;

    @JsonPropertyDescription("The running (or last) shard-count migration: from, to, tasks moved and left.")
    private ReshardingStatus resharding;

    @JsonPropertyDescription("The delayq protocol the queue's meta hash in Redis recorded at the last check (2 or 3).")
    private Integer protocol;

    @JsonPropertyDescription("The running (or last) upgrade to protocol 3 that spec.protocol asked for: tasks adopted, tasks protocol 2 still holds in flight.")
    private ProtocolUpgradeStatus upgrade;

    @JsonPropertyDescription("Ready, Progressing, Degraded, Paused and Resharding.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription("The queue name in Redis.")
    private String queue;

    @JsonPropertyDescription("Ready worker pods / desired worker pods, over all worker Deployments.")
    private String workers;

    @JsonPropertyDescription("Replicas of each worker Deployment (the largest, when autoscaling sizes them differently); the scale subresource reads it.")
    @StatusReplicas
    private Integer replicas;

    @JsonPropertyDescription("Label selector of all worker pods, for the scale subresource.")
    @LabelSelector
    private String selector;

    @JsonPropertyDescription("Backlog of the whole queue at the last check.")
    private BacklogStatus backlog;

    @JsonPropertyDescription("The whole queue's due forecast at the last check: tasks due within the coming windows and the next due time.")
    private ForecastStatus forecast;

    @JsonPropertyDescription("One entry per worker Deployment.")
    private List<WorkerDeploymentStatus> workerDeployments = new ArrayList<>();

    @JsonPropertyDescription("The outbox relay's own Deployment (spec.outbox.relay.mode Deployment): replicas, ready replicas; absent otherwise.")
    private OutboxRelayStatus outboxRelay;

    @JsonPropertyDescription("What the operator found out about the Redis server.")
    private RedisStatus redis;

    @JsonPropertyDescription("The earliest next occurrence over the queue's schedules (RFC 3339).")
    private String nextScheduleFire;

    @JsonPropertyDescription("One entry per schedule of spec.schedules, as the workers' planners left it in Redis.")
    private List<ScheduleStatusEntry> schedules;

    @JsonPropertyDescription("When autoscaling last changed a replica count.")
    private String lastScaleTime;

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public String getQueue() {
        return queue;
    }

    public void setQueue(String queue) {
        this.queue = queue;
    }

    public String getWorkers() {
        return workers;
    }

    public void setWorkers(String workers) {
        this.workers = workers;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public String getSelector() {
        return selector;
    }

    public void setSelector(String selector) {
        this.selector = selector;
    }

    public BacklogStatus getBacklog() {
        return backlog;
    }

    public void setBacklog(BacklogStatus backlog) {
        this.backlog = backlog;
    }

    public List<WorkerDeploymentStatus> getWorkerDeployments() {
        return workerDeployments;
    }

    public void setWorkerDeployments(List<WorkerDeploymentStatus> workerDeployments) {
        this.workerDeployments = workerDeployments;
    }

    public RedisStatus getRedis() {
        return redis;
    }

    public void setRedis(RedisStatus redis) {
        this.redis = redis;
    }

    public OutboxRelayStatus getOutboxRelay() {
        return outboxRelay;
    }

    public void setOutboxRelay(OutboxRelayStatus outboxRelay) {
        this.outboxRelay = outboxRelay;
    }

    public String getLastScaleTime() {
        return lastScaleTime;
    }

    public void setLastScaleTime(String lastScaleTime) {
        this.lastScaleTime = lastScaleTime;
    }

    public String getNextScheduleFire() {
        return nextScheduleFire;
    }

    public void setNextScheduleFire(String nextScheduleFire) {
        this.nextScheduleFire = nextScheduleFire;
    }

    public List<ScheduleStatusEntry> getSchedules() {
        return schedules;
    }

    public void setSchedules(List<ScheduleStatusEntry> schedules) {
        this.schedules = schedules;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public Integer getProtocol() {
        return protocol;
    }

    public void setProtocol(Integer protocol) {
        this.protocol = protocol;
    }

    public ProtocolUpgradeStatus getUpgrade() {
        return upgrade;
    }

    public void setUpgrade(ProtocolUpgradeStatus upgrade) {
        this.upgrade = upgrade;
    }

    public ReshardingStatus getResharding() {
        return resharding;
    }

    public void setResharding(ReshardingStatus resharding) {
        this.resharding = resharding;
    }

    public ForecastStatus getForecast() {
        return forecast;
    }

    public void setForecast(ForecastStatus forecast) {
        this.forecast = forecast;
    }
}
