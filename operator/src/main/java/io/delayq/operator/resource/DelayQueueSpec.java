package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;

import static io.delayq.settings.WorkerSettings.*;

/**
 * What the user asks for. Java field initializers repeat the schema's {@code @Default}s because
 * the operator also reads resources that no API server defaulted (the tests' mock server, or a
 * resource created before a default was added); both take the worker contract's constants
 * ({@link io.delayq.settings.WorkerSettings}), and {@code CrdDefaultsTest} keeps the two in step.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.shardsPerWorker) || self.shardsPerWorker <= self.shards",
        message = "spec.shardsPerWorker must be between 1 and spec.shards: a worker Deployment cannot own more shards than the queue has")
@ValidationRule(value = "!has(self.shardsPerWorker) || (self.shards + self.shardsPerWorker - 1) / self.shardsPerWorker <= 256",
        message = "spec.shards / spec.shardsPerWorker would create more than 256 worker Deployments: raise spec.shardsPerWorker")
// Checked here where both are in Go's duration syntax (CEL's duration() reads no days and no ISO-8601); the operator
// checks every form (SpecRules) and touches nothing while it fails. Ten additions, because CEL cannot multiply a
// duration, and getMilliseconds() means the whole duration in one CEL implementation and its millisecond part in another.
@ValidationRule(value = "!has(self.claimAhead) || !has(self.lease) || !self.claimAhead.matches('^[0-9]+(ms|s|m|h)$')"
        + " || !self.lease.matches('^[0-9]+(ms|s|m|h)$') || " + DelayQueueSpec.TEN_CLAIM_AHEADS + " <= duration(self.lease)",
        message = "spec.claimAhead must be 0s (off) or at most a tenth of spec.lease: a task claimed ahead waits under its claim's lease")
// The stock worker image carries no handler: Handler delivery (the default) with it would give pods that exit 2
// and crash-loop, so such a resource is refused at admission instead (docs/handlers.md).
@ValidationRule(value = "(has(self.delivery) && has(self.delivery.type) && self.delivery.type != 'Handler') || (has(self.worker) && has(self.worker.image))",
        message = "spec.worker.image is required when spec.delivery.type is Handler (the default): the stock worker image carries no TaskHandler; "
                + "name an image built with yours (see examples/order-timeout-handler), or set spec.delivery.type to Webhook, Stream or Kafka")
public class DelayQueueSpec {
    /** {@code duration(self.claimAhead)} ten times over, for the CRD rule above. */
    static final String TEN_CLAIM_AHEADS = "duration(self.claimAhead) + duration(self.claimAhead) + duration(self.claimAhead)"
            + " + duration(self.claimAhead) + duration(self.claimAhead) + duration(self.claimAhead) + duration(self.claimAhead)"
            + " + duration(self.claimAhead) + duration(self.claimAhead) + duration(self.claimAhead)";

    public static final int MAX_SHARDS = io.delayq.shard.Sharding.MAX_SHARDS;

    @JsonPropertyDescription("Name of the queue in Redis (a lower-case DNS label of at most 40 characters). Defaults to metadata.name.")
    @Pattern(Patterns.DNS_LABEL)
    @Size(max = 40)
    private String queueName;

    @JsonPropertyDescription("Number of shards (1-1024). May grow, never shrink: raising it makes the operator move the tasks whose shard "
            + "(crc32(id) mod shards) changes to their new shard while the queue runs (docs/resharding.md).")
    @Required
    @Min(1)
    @Max(MAX_SHARDS)
    @ValidationRule(value = "self >= oldSelf",
            message = "spec.shards may grow but not shrink: shards above the new count would be outside every worker's range, "
                    + "where producers still on the old count would strand tasks; shrinking is refused: create a new DelayQueue and drain the old one")
    private int shards;

    @JsonPropertyDescription("How many shards each worker Deployment owns. Absent: one Deployment owns every shard. Uneven splits are balanced (10 shards by 4 gives 4, 3, 3).")
    @Min(1)
    @Max(MAX_SHARDS)
    private Integer shardsPerWorker;

    @JsonPropertyDescription("The delayq protocol the queue runs in Redis (docs/protocol3.md). 3 upgrades a queue of protocol 2 in place while "
            + "its producers and workers go on (the operator runs the upgrade, status.upgrade shows it); absent or 2 leaves the queue as it is. "
            + "A new queue is recorded as protocol 3 by its first worker or producer; an upgrade waits for a reshard to finish. "
            + "A queue on protocol 3 is never downgraded.")
    @Min(2)
    @Max(3)
    @ValidationRule(value = "self >= oldSelf", message = "spec.protocol cannot go back: a queue upgraded to protocol 3 stays on protocol 3")
    private Integer protocol;

    @JsonPropertyDescription("Replicas of each worker Deployment when autoscaling.mode is Disabled or External (the target of the scale subresource).")
    @SpecReplicas
    @Default("1")
    @Min(0)
    @Max(1000)
    private Integer replicas = 1;

    @JsonPropertyDescription("Most tasks a worker claims in one script call (1-1000).")
    @Default("" + DEFAULT_BATCH_SIZE)
    @Min(1)
    @Max(MAX_BATCH_SIZE)
    private int batchSize = DEFAULT_BATCH_SIZE;

    @JsonPropertyDescription("Longest a worker sleeps between claims when nothing wakes it earlier, e.g. 1s or 500ms.")
    @Default(DEFAULT_POLL_INTERVAL)
    @Pattern(Durations.PATTERN)
    private String pollInterval = DEFAULT_POLL_INTERVAL;

    @JsonPropertyDescription("How long a claimed task belongs to its worker before it is handed out again, e.g. 30s.")
    @Default(DEFAULT_LEASE)
    @Pattern(Durations.PATTERN)
    private String lease = DEFAULT_LEASE;

    // No CRD default: left out, the worker takes 100ms or a tenth of a shorter lease (a fixed default would make every
    // resource with a lease under 1s invalid)
    @JsonPropertyDescription("Claims also take tasks due within this window, held by the worker until due (fewer Redis calls for a"
            + " trickle of tasks); from their claim they count as in flight. 0s = off; at most a tenth of lease. Left out: "
            + DEFAULT_CLAIM_AHEAD + ", or a tenth of a lease shorter than 1s.")
    @Pattern(Durations.PATTERN)
    private String claimAhead;

    // No CRD default: left out, the worker picks it by delivery type (a webhook or Kafka slot mostly waits on the network)
    @JsonPropertyDescription("Tasks each worker pod handles at once (1-4096). Left out: " + DEFAULT_CONCURRENCY
            + ", or " + DEFAULT_WEBHOOK_CONCURRENCY + " with Webhook delivery, " + DEFAULT_KAFKA_CONCURRENCY + " with Kafka delivery.")
    @Min(1)
    @Max(MAX_CONCURRENCY)
    private Integer concurrency;

    @JsonPropertyDescription("How long a stopping worker may finish in-flight tasks, e.g. 30s.")
    @Default(DEFAULT_SHUTDOWN_GRACE)
    @Pattern(Durations.PATTERN)
    private String shutdownGrace = DEFAULT_SHUTDOWN_GRACE;

    @JsonPropertyDescription("A handler still running after this is interrupted and its task retried, e.g. 30m; 0s = no deadline.")
    @Default(DEFAULT_HANDLER_TIMEOUT)
    @Pattern(Durations.PATTERN)
    private String handlerTimeout = DEFAULT_HANDLER_TIMEOUT;

    @JsonPropertyDescription("Retry policy for failed deliveries.")
    private RetrySpec retry = new RetrySpec();

    @JsonPropertyDescription("Bounds of the dead-letter set.")
    private DeadLetterSpec deadLetter = new DeadLetterSpec();

    @JsonPropertyDescription("Completion records kept after each ack, for inspect (off by default).")
    private ResultsSpec results;

    @JsonPropertyDescription("Fleet-wide delivery rate limit.")
    private RateLimitSpec rateLimit;

    @JsonPropertyDescription("How the claims share a shard between groups (a task's group key): weights in the round robin.")
    private GroupsSpec groups;

    @JsonPropertyDescription("Where the queue lives.")
    @Required
    private RedisSpec redis;

    @JsonPropertyDescription("Where fired tasks go: an in-process handler, a webhook, a Redis Stream or a Kafka topic.")
    private DeliverySpec delivery = new DeliverySpec();

    @JsonPropertyDescription("Settings of the worker pods.")
    private WorkerSpec worker = new WorkerSpec();

    @JsonPropertyDescription("How the operator sizes each worker Deployment.")
    private AutoscalingSpec autoscaling = new AutoscalingSpec();

    @JsonPropertyDescription("Recurring tasks: each occurrence of a schedule becomes a task of this queue (docs/schedules.md).")
    @Size(max = 200)
    @ValidationRule(value = "self.all(s, self.exists_one(t, t.name == s.name))",
            message = "spec.schedules[].name must be unique in the DelayQueue")
    private java.util.List<ScheduleSpec> schedules;

    @JsonPropertyDescription("How the workers plan the occurrences of spec.schedules; absent fields keep the worker's defaults (docs/schedules.md).")
    private SchedulePlannerSpec schedulePlanner;

    @JsonPropertyDescription("A PostgreSQL outbox that the workers copy into this queue (docs/outbox.md): tasks scheduled in the same "
            + "SQL transaction as the business row. Every worker replica runs a relay.")
    private OutboxSpec outbox;

    @JsonPropertyDescription("Scale every worker Deployment to zero; queued tasks wait in Redis.")
    @Default("false")
    private boolean suspend;

    public java.util.List<ScheduleSpec> getSchedules() {
        return schedules;
    }

    public void setSchedules(java.util.List<ScheduleSpec> schedules) {
        this.schedules = schedules;
    }

    public OutboxSpec getOutbox() {
        return outbox;
    }

    public void setOutbox(OutboxSpec outbox) {
        this.outbox = outbox;
    }

    public SchedulePlannerSpec getSchedulePlanner() {
        return schedulePlanner;
    }

    public void setSchedulePlanner(SchedulePlannerSpec schedulePlanner) {
        this.schedulePlanner = schedulePlanner;
    }

    public String getQueueName() {
        return queueName;
    }

    public void setQueueName(String queueName) {
        this.queueName = queueName;
    }

    public int getShards() {
        return shards;
    }

    public void setShards(int shards) {
        this.shards = shards;
    }

    public Integer getShardsPerWorker() {
        return shardsPerWorker;
    }

    public void setShardsPerWorker(Integer shardsPerWorker) {
        this.shardsPerWorker = shardsPerWorker;
    }

    public Integer getProtocol() {
        return protocol;
    }

    public void setProtocol(Integer protocol) {
        this.protocol = protocol;
    }

    public Integer getReplicas() {
        return replicas;
    }

    public void setReplicas(Integer replicas) {
        this.replicas = replicas;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public String getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(String pollInterval) {
        this.pollInterval = pollInterval;
    }

    public String getLease() {
        return lease;
    }

    public void setLease(String lease) {
        this.lease = lease;
    }

    /** Null when left out: the worker's default for the delivery type applies. */
    public Integer getConcurrency() {
        return concurrency;
    }

    public void setConcurrency(Integer concurrency) {
        this.concurrency = concurrency;
    }

    /** Null when left out: the worker's default (a tenth of a short lease) applies. */
    public String getClaimAhead() {
        return claimAhead;
    }

    public void setClaimAhead(String claimAhead) {
        this.claimAhead = claimAhead;
    }

    public String getShutdownGrace() {
        return shutdownGrace;
    }

    public void setShutdownGrace(String shutdownGrace) {
        this.shutdownGrace = shutdownGrace;
    }

    public String getHandlerTimeout() {
        return handlerTimeout;
    }

    public void setHandlerTimeout(String handlerTimeout) {
        this.handlerTimeout = handlerTimeout;
    }

    public RetrySpec getRetry() {
        return retry;
    }

    public void setRetry(RetrySpec retry) {
        this.retry = retry;
    }

    public ResultsSpec getResults() {
        return results;
    }

    public void setResults(ResultsSpec results) {
        this.results = results;
    }

    public DeadLetterSpec getDeadLetter() {
        return deadLetter;
    }

    public void setDeadLetter(DeadLetterSpec deadLetter) {
        this.deadLetter = deadLetter;
    }

    public RateLimitSpec getRateLimit() {
        return rateLimit;
    }

    public void setRateLimit(RateLimitSpec rateLimit) {
        this.rateLimit = rateLimit;
    }

    public GroupsSpec getGroups() {
        return groups;
    }

    public void setGroups(GroupsSpec groups) {
        this.groups = groups;
    }

    public RedisSpec getRedis() {
        return redis;
    }

    public void setRedis(RedisSpec redis) {
        this.redis = redis;
    }

    public DeliverySpec getDelivery() {
        return delivery;
    }

    public void setDelivery(DeliverySpec delivery) {
        this.delivery = delivery;
    }

    public WorkerSpec getWorker() {
        return worker;
    }

    public void setWorker(WorkerSpec worker) {
        this.worker = worker;
    }

    public AutoscalingSpec getAutoscaling() {
        return autoscaling;
    }

    public void setAutoscaling(AutoscalingSpec autoscaling) {
        this.autoscaling = autoscaling;
    }

    public boolean isSuspend() {
        return suspend;
    }

    public void setSuspend(boolean suspend) {
        this.suspend = suspend;
    }
}
