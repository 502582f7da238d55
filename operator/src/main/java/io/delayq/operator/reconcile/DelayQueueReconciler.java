package io.delayq.operator.reconcile;

import io.delayq.backlog.QueueStats;
import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.cluster.ServedApis;
import io.delayq.operator.metrics.QueueMetrics;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.redis.QueueReader;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.SpecRules;
import io.delayq.layout.Layout;
import io.delayq.operator.resharding.MigrationJob;
import io.delayq.operator.resharding.MigrationJobs;
import io.delayq.operator.resharding.ReshardPlan;
import io.delayq.operator.upgrade.UpgradeJob;
import io.delayq.operator.upgrade.UpgradeJobs;
import io.delayq.operator.upgrade.UpgradePlan;
import io.delayq.operator.upgrade.UpgradeProgress;
import io.delayq.operator.sharding.ShardPlan;
import io.delayq.operator.status.Conditions;
import io.delayq.operator.status.DisruptionBudgetCondition;
import io.delayq.operator.status.CrashingWorkers;
import io.delayq.operator.status.Notice;
import io.delayq.operator.status.Notices;
import io.delayq.operator.status.StatusComposer;
import io.delayq.operator.status.StatusInput;
import io.delayq.operator.schedules.DesiredSchedules;
import io.delayq.operator.schedules.ScheduleStatuses;
import io.delayq.operator.schedules.ScheduleSync;
import io.delayq.schedule.ScheduleStatus;
import io.delayq.operator.workers.DesiredWorkers;
import io.delayq.operator.workers.OutboxRelayDeployment;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.operator.workers.WorkerNames;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceUtils;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reconciles a DelayQueue: check its Secrets, look at the queue in Redis, compute the desired
 * objects (a pure function), apply them through the dependent resources, write status, record
 * Events for what changed, and come back after the backlog interval. Each step lives in its own
 * class; this one only orders them.
 */
@ControllerConfiguration(name = DelayQueueReconciler.NAME)
public class DelayQueueReconciler implements Reconciler<DelayQueue> {
    public static final String NAME = "delayqueue";
    private static final Logger LOG = LoggerFactory.getLogger(DelayQueueReconciler.class);
    private static final KubernetesSerialization JSON = new KubernetesSerialization();
    /** Each Redis call of an upgrade step, and how long one upgrade run waits for protocol 2's tasks in flight. */
    private static final Duration UPGRADE_STEP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration UPGRADE_PATIENCE = Duration.ofSeconds(30);

    private final WorkerDeploymentsResource deployments = new WorkerDeploymentsResource();
    private final MetricsServiceResource metricsService = new MetricsServiceResource();
    private final DisruptionBudgetResource disruptionBudget = new DisruptionBudgetResource();
    private final QueueReader reader;
    private final QueueMetrics metrics;
    private final Clock clock;
    private final Duration backlogInterval;
    private final String workerImage;
    private final MigrationJobs migrations;
    private final UpgradeJobs upgrades;
    private final int reshardBatch;
    private final ServedApis apis;
    private final FleetMeter fleetMeter;
    /** Where a mover job tells the reconciler to look again (it started moving, finished or failed). */
    private final SimpleInboundEventSource<DelayQueue> migrationEvents = new SimpleInboundEventSource<>("delayqueue-migrations");

    public DelayQueueReconciler(QueueReader reader, QueueMetrics metrics, Clock clock, Duration backlogInterval, String workerImage) {
        this(reader, metrics, clock, backlogInterval, workerImage, new MigrationJobs(backlogInterval, clock),
                new UpgradeJobs(backlogInterval, clock), 100, ServedApis.all());
    }

    /**
     * @param migrations   the operator's mover jobs (closed by the operator when it stops)
     * @param upgrades     the operator's upgrade jobs to protocol 3 (closed by the operator when it stops)
     * @param reshardBatch entries per move script call of those jobs
     * @param apis         what the API server serves (no PodDisruptionBudgets where {@code policy/v1} is not)
     */
    public DelayQueueReconciler(QueueReader reader, QueueMetrics metrics, Clock clock, Duration backlogInterval, String workerImage,
                                MigrationJobs migrations, UpgradeJobs upgrades, int reshardBatch, ServedApis apis) {
        this.reader = reader;
        this.metrics = metrics;
        this.clock = clock;
        this.backlogInterval = backlogInterval;
        this.workerImage = workerImage;
        this.migrations = migrations;
        this.upgrades = upgrades;
        this.reshardBatch = reshardBatch;
        this.apis = apis;
        this.fleetMeter = new FleetMeter();
    }

    @Override
    public List<EventSource<?, DelayQueue>> prepareEventSources(EventSourceContext<DelayQueue> context) {
        List<EventSource<?, DelayQueue>> sources = new ArrayList<>(apis.disruptionBudgets()
                ? EventSourceUtils.dependentEventSources(context, deployments, metricsService, disruptionBudget)
                : EventSourceUtils.dependentEventSources(context, deployments, metricsService));
        sources.add(new DeletionWatcher(this::forget));
        sources.add(migrationEvents);
        return sources;
    }

    @Override
    public UpdateControl<DelayQueue> reconcile(DelayQueue dq, Context<DelayQueue> context) {
        Instant now = clock.instant();
        String namespace = dq.getMetadata().getNamespace();
        KubernetesClient client = context.getClient();
        DelayQueueStatus before = dq.getStatus();

        int wanted = dq.getSpec().getShards();
        Integer perWorker = dq.getSpec().getShardsPerWorker();
        try {
            ShardPlan.ranges(wanted, perWorker);
            SpecRules.check(dq.getSpec());
        } catch (IllegalArgumentException e) {
            // Only reachable past the CRD's validation (which rejects it): say so and touch nothing.
            return invalidSpec(dq, context, e.getMessage(), now);
        }

        Function<String, Secret> lookup = name -> client.secrets().inNamespace(namespace).withName(name).get();
        SecretCheck secrets = SecretCheck.of(dq, lookup);
        // Listed on every reconciliation (the backlog interval brings it back): a crash loop shows within one interval,
        // and the pods' start-up sets Forecast autoscaling's lead time.
        List<Pod> workerPods = client.pods().inNamespace(namespace).withLabels(WorkerLabels.allWorkers(dq.getMetadata().getName()))
                .list().getItems();
        AutoscalingSpec autoscaling = dq.getSpec().getAutoscaling();
        MeasuredFleet fleet = fleetMeter.beforeLook(StatusComposer.remembered(before, backlogInterval), workerPods);
        QueueReading look = secrets.redisSecretsUsable()
                ? reader.read(key(dq), dq.getSpec().getRedis().getUrl(), secrets.credentials(), secrets.tlsCa(), dq.queueName(),
                        wanted, layout -> ReshardPlan.of(wanted, perWorker, layout).ranges(),
                        ForecastPolicy.windowsFor(autoscaling, fleet))
                : null;
        fleet = fleetMeter.afterLook(key(dq), fleet, look,
                autoscaling == null ? new AutoscalingSpec().getTargetTasksPerReplicaPerSecond() : autoscaling.getTargetTasksPerReplicaPerSecond());
        Layout layout = look != null && look.layout() != null ? look.layout() : lastKnownMigration(before);
        ReshardPlan plan = ReshardPlan.of(wanted, perWorker, layout);
        // Only a layout read from Redis this time starts a mover: one remembered from status may be over.
        if (plan.moveTo() > 0 && look != null && look.layout() != null) {
            migrations.ensure(key(dq), plan.moveTo(), to -> moverParams(dq, secrets, to));
        } else if (!plan.resharding()) {
            migrations.forgetEnded(key(dq));
        }
        List<ShardRange> ranges = plan.ranges();
        UpgradePlan upgrade = UpgradePlan.of(dq.getSpec().getProtocol(), look == null ? 0 : look.protocol(), layout,
                plan.resharding(), before == null ? null : before.getUpgrade());
        if (upgrade.action() == UpgradePlan.Action.UPGRADE) {
            upgrades.ensure(key(dq), () -> upgradeParams(dq, secrets));
        } else {
            upgrades.forgetEnded(key(dq));
        }
        Optional<UpgradeJob.State> upgradeJob = upgrades.state(key(dq));

        List<Problem> problems = new ArrayList<>(secrets.problems());
        List<Problem> warnings = new ArrayList<>();
        if (look != null && look.problem() != null) {
            problems.add(look.problem());
        }
        if (look != null && look.facts() != null) {
            problems.addAll(look.facts().problems());
            warnings.addAll(look.facts().warnings());
        }
        problems.addAll(CrashingWorkers.of(workerPods, secrets.credentials()));
        problems.addAll(UpgradeProgress.problems(upgrade, upgradeJob));

        DesiredSchedules wantedSchedules = DesiredSchedules.of(dq.getSpec());
        problems.addAll(wantedSchedules.problems());
        List<ScheduleStatus> schedules = syncSchedules(dq, look, wantedSchedules, problems);

        Map<String, Deployment> actual = context.getSecondaryResourcesAsStream(Deployment.class)
                .collect(Collectors.toMap(d -> d.getMetadata().getName(), d -> d, (a, b) -> a, LinkedHashMap::new));
        DesiredWorkers desired = DesiredWorkers.computeFor(dq, plan.workers(), look, fleet, actual, secrets.versions(), workerImage, now);
        DesiredStateHolder.put(context, desired, OutboxRelayDeployment.desired(dq, secrets.versions(), workerImage));
        deployments.reconcile(dq, context);
        metricsService.reconcile(dq, context);
        if (apis.disruptionBudgets()) {
            disruptionBudget.reconcile(dq, context);
        }

        exportMetrics(dq, ranges, look);
        DelayQueueStatus after = StatusComposer.compose(
                new StatusInput(dq, ranges, actual, desired.decisions(), look, problems, now, plan,
                        look == null ? null : look.layout(), migrations.state(key(dq)), fleet));
        if (!apis.disruptionBudgets()) {
            after.getConditions().add(DisruptionBudgetCondition.notServed(before == null ? null : before.getConditions(),
                    after.getObservedGeneration() == null ? 0 : after.getObservedGeneration(), now));
        }
        if (schedules != null) {
            after.setSchedules(schedules.isEmpty() ? null : ScheduleStatuses.entries(schedules));
            after.setNextScheduleFire(ScheduleStatuses.nextFire(schedules).map(Instant::toString).orElse(null));
        } else if (before != null) {
            // Redis could not be read: keep what the last look showed
            after.setSchedules(before.getSchedules());
            after.setNextScheduleFire(before.getNextScheduleFire());
        }
        Integer protocolBefore = before == null ? null : before.getProtocol();
        after.setProtocol(look == null || look.protocol() == 0 ? protocolBefore : Integer.valueOf(look.protocol()));
        after.setUpgrade(UpgradeProgress.status(upgrade, upgradeJob, before == null ? null : before.getUpgrade()));
        List<Notice> notices = new ArrayList<>(Notices.between(before, after, problems, warnings));
        notices.addAll(UpgradeProgress.notices(before, after));
        for (Notice notice : notices) {
            KubernetesEvents.record(client, dq, notice, now);
        }
        if (!problems.isEmpty() && changed(before, after)) {
            LOG.warn("DelayQueue {}/{} is degraded: {}", namespace, dq.getMetadata().getName(),
                    problems.stream().map(Problem::message).collect(Collectors.joining("; ")));
        }
        return writeIfChanged(dq, context, before, after);
    }

    /** The job that grows this queue: core's mover on a connection of its own to the queue's Redis. */
    private MigrationJob.Params moverParams(DelayQueue dq, SecretCheck secrets, int to) {
        String url = dq.getSpec().getRedis().getUrl();
        ResourceID id = ResourceID.fromResource(dq);
        return new MigrationJob.Params(key(dq), to, reshardBatch,
                () -> reader.open(url, secrets.credentials(), secrets.tlsCa(), dq.queueName(), to),
                () -> migrationEvents.propagateEvent(id), clock);
    }

    /** The job that upgrades this queue to protocol 3: core's upgrade on a connection of its own to the queue's Redis. */
    private UpgradeJob.Params upgradeParams(DelayQueue dq, SecretCheck secrets) {
        ResourceID id = ResourceID.fromResource(dq);
        return new UpgradeJob.Params(key(dq), () -> reader.open(dq.getSpec().getRedis().getUrl(), secrets.credentials(), secrets.tlsCa(),
                dq.queueName(), dq.getSpec().getShards()), UPGRADE_STEP_TIMEOUT, UPGRADE_PATIENCE,
                () -> migrationEvents.propagateEvent(id), clock);
    }

    /**
     * The migration the last status showed as running, when Redis cannot be read now: its Deployments (old and
     * new layout) stay until a look at Redis says it has finished.
     */
    private static Layout lastKnownMigration(DelayQueueStatus status) {
        if (status == null || status.getResharding() == null || status.getResharding().isFinished()) {
            return null;
        }
        var r = status.getResharding();
        return Layout.of(0, r.getTo(), r.getFrom() + "," + r.getTo(), r.getFrom() + " " + r.getTo(), r.getMoved(), r.getLeft());
    }

    /**
     * Writes the resource's schedules to Redis (the one truth the workers plan from) and reads back
     * their state; null when Redis could not be read this time.
     */
    private List<ScheduleStatus> syncSchedules(DelayQueue dq, QueueReading look, DesiredSchedules wanted, List<Problem> problems) {
        if (look == null || look.problem() != null) {
            return null;
        }
        var schedules = reader.schedules(key(dq));
        if (schedules.isEmpty()) {
            return null;
        }
        try {
            return ScheduleSync.apply(schedules.get(), wanted, problems);
        } catch (RuntimeException e) {
            problems.add(new Problem(Reason.REDIS_UNAVAILABLE, "cannot write the schedules to Redis: " + e.getMessage()));
            return null;
        }
    }

    /**
     * Writes the whole status (PUT of /status, guarded by the resourceVersion; on a conflict the SDK retries on the
     * fresh object) and puts the answer in the SDK's cache at once. Not a JSON Patch: a patch computed against a
     * resource without status replaces a path that a real API server does not have and gets 422. The next
     * reconciliation (often triggered by a Deployment event a moment later) must see this status,
     * or it would repeat Events and forget when a scale-down became pending.
     */
    private UpdateControl<DelayQueue> writeIfChanged(DelayQueue dq, Context<DelayQueue> context,
                                                     DelayQueueStatus before, DelayQueueStatus after) {
        if (changed(before, after)) {
            PrimaryUpdateAndCacheUtils.updateStatusAndCacheResource(dq, context, fresh -> {
                fresh.setStatus(after);
                return fresh;
            });
        }
        return UpdateControl.<DelayQueue>noUpdate().rescheduleAfter(backlogInterval);
    }

    /** Whether anything but the read times moved: every check would otherwise write status. */
    static boolean changed(DelayQueueStatus before, DelayQueueStatus after) {
        if (before == null) {
            return true;
        }
        return !withoutTimes(before).equals(withoutTimes(after));
    }

    private static String withoutTimes(DelayQueueStatus status) {
        return JSON.asJson(status).replaceAll("\"observedAt\":\"[^\"]*\"", "");
    }

    private UpdateControl<DelayQueue> invalidSpec(DelayQueue dq, Context<DelayQueue> context, String message, Instant now) {
        KubernetesClient client = context.getClient();
        DelayQueueStatus before = dq.getStatus();
        DelayQueueStatus after = before == null ? new DelayQueueStatus() : JSON.clone(before);
        long generation = Objects.requireNonNullElse(dq.getMetadata().getGeneration(), 0L);
        after.setObservedGeneration(generation);
        List<io.fabric8.kubernetes.api.model.Condition> was = before == null ? List.of() : before.getConditions();
        after.setConditions(new ArrayList<>(List.of(
                Conditions.next(was, Conditions.READY, false, Reason.INVALID_SPEC.text(), message, generation, now),
                Conditions.next(was, Conditions.DEGRADED, true, Reason.INVALID_SPEC.text(), message, generation, now))));
        Problem problem = new Problem(Reason.INVALID_SPEC, message);
        for (Notice notice : Notices.between(before, after, List.of(problem), List.of())) {
            KubernetesEvents.record(client, dq, notice, now);
        }
        return writeIfChanged(dq, context, before, after);
    }

    private void exportMetrics(DelayQueue dq, List<ShardRange> ranges, QueueReading look) {
        String namespace = dq.getMetadata().getNamespace();
        String name = dq.getMetadata().getName();
        if (look == null || look.backlog().isEmpty()) {
            // Keep the last numbers of the ranges that still exist; a range that is gone has no meaning.
            metrics.retain(namespace, name, ranges.stream().map(r -> WorkerNames.deployment(name, r)).collect(Collectors.toSet()));
            return;
        }
        Map<String, QueueStats> byWorker = new LinkedHashMap<>();
        for (ShardRange range : ranges) {
            look.backlogOf(range).ifPresent(stats -> byWorker.put(WorkerNames.deployment(name, range), stats));
        }
        metrics.update(namespace, name, dq.queueName(), byWorker);
    }

    @Override
    public ErrorStatusUpdateControl<DelayQueue> updateErrorStatus(DelayQueue dq, Context<DelayQueue> context, Exception e) {
        if (e instanceof io.fabric8.kubernetes.client.KubernetesClientException k && k.getCode() == 404) {
            // Deleted while being reconciled: nothing left to fix.
            LOG.debug("DelayQueue {}/{} went away during reconciliation", dq.getMetadata().getNamespace(), dq.getMetadata().getName());
            return ErrorStatusUpdateControl.<DelayQueue>noStatusUpdate().withNoRetry();
        }
        LOG.warn("reconciling DelayQueue {}/{} failed, will retry: {}", dq.getMetadata().getNamespace(), dq.getMetadata().getName(), e.toString());
        return ErrorStatusUpdateControl.defaultErrorProcessing();
    }

    private void forget(DelayQueue dq) {
        fleetMeter.forget(key(dq));
        migrations.stop(key(dq));
        upgrades.stop(key(dq));
        reader.forget(key(dq));
        metrics.remove(dq.getMetadata().getNamespace(), dq.getMetadata().getName());
    }

    private static String key(DelayQueue dq) {
        return dq.getMetadata().getNamespace() + "/" + dq.getMetadata().getName();
    }
}
