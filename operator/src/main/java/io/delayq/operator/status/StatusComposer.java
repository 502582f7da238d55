package io.delayq.operator.status;

import io.delayq.DurationText;
import io.delayq.backlog.DueForecast;
import io.delayq.backlog.QueueStats;
import io.delayq.operator.autoscaling.ForecastPolicy;
import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.resource.BacklogStatus;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.ForecastStatus;
import io.delayq.operator.resource.ForecastWindowStatus;
import io.delayq.operator.resource.OutboxRelaySpec;
import io.delayq.operator.resource.OutboxRelayStatus;
import io.delayq.operator.resource.RedisStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.operator.workers.WorkerNames;
import io.delayq.redis.RedisEndpoint;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** Computes the DelayQueue's status from what the operator observed; no client, no clock of its own. */
public final class StatusComposer {

    private StatusComposer() {
    }

    public static DelayQueueStatus compose(StatusInput in) {
        DelayQueue dq = in.resource();
        DelayQueueStatus previous = dq.getStatus() == null ? new DelayQueueStatus() : dq.getStatus();
        long generation = Optional.ofNullable(dq.getMetadata().getGeneration()).orElse(0L);
        String name = dq.getMetadata().getName();

        DelayQueueStatus status = new DelayQueueStatus();
        status.setObservedGeneration(generation);
        status.setQueue(dq.queueName());
        status.setSelector(WorkerLabels.asSelector(WorkerLabels.allWorkers(name)));

        boolean backlogKnown = in.reading() != null && !in.reading().backlog().isEmpty();
        List<WorkerDeploymentStatus> workers = new ArrayList<>();
        List<String> notRolledOut = new ArrayList<>();
        int desiredPods = 0;
        int readyPods = 0;
        int largest = 0;
        Instant lastScale = null;
        for (ShardRange range : in.ranges()) {
            String deploymentName = WorkerNames.deployment(name, range);
            ScalingDecision decision = in.decisions().get(deploymentName);
            Deployment actual = in.deployments().get(deploymentName);
            WorkerDeploymentStatus w = new WorkerDeploymentStatus();
            w.setName(deploymentName);
            w.setShardFrom(range.from());
            w.setShardTo(range.to());
            w.setShards(in.shardsOf(range));
            w.setRetiring(in.retiring(range) ? Boolean.TRUE : null);
            w.setReplicas(decision.replicas());
            w.setReadyReplicas(readyReplicas(actual));
            w.setScaleReason(decision.reason());
            w.setLastScaleTime(decision.lastScaleTime() == null ? null : decision.lastScaleTime().toString());
            w.setScaleDownPendingSince(decision.scaleDownPendingSince() == null ? null : decision.scaleDownPendingSince().toString());
            if (backlogKnown) {
                in.reading().backlogOf(range).ifPresent(stats -> w.setBacklog(backlog(stats, in.now())));
            } else {
                previousWorker(previous, deploymentName).map(WorkerDeploymentStatus::getBacklog).ifPresent(w::setBacklog);
            }
            workers.add(w);
            desiredPods += decision.replicas();
            readyPods += Math.min(w.getReadyReplicas(), decision.replicas());
            largest = Math.max(largest, decision.replicas());
            if (decision.lastScaleTime() != null && (lastScale == null || decision.lastScaleTime().isAfter(lastScale))) {
                lastScale = decision.lastScaleTime();
            }
            if (!rolledOut(actual, decision.replicas())) {
                notRolledOut.add(deploymentName);
            }
        }
        status.setWorkerDeployments(workers);
        OutboxRelayStatus relay = outboxRelay(dq, in);
        status.setOutboxRelay(relay);
        List<String> pending = new ArrayList<>(notRolledOut);
        if (relay != null && !relay.isReady()) {
            pending.add(relay.getName());
        }
        status.setReplicas(largest);
        status.setWorkers(readyPods + "/" + desiredPods);
        status.setLastScaleTime(lastScale == null ? previous.getLastScaleTime() : lastScale.toString());
        status.setBacklog(backlogKnown ? total(workers, in.now()) : previous.getBacklog());
        status.setForecast(backlogKnown ? forecast(in).orElse(null) : previous.getForecast());
        status.setRedis(redis(dq, in, previous));
        status.setResharding(Resharding.status(in.plan(), in.layout(), previous.getResharding()));
        List<Condition> conditions = conditions(dq, in, previous.getConditions(), generation, notRolledOut, pending, relay, workers.size(), readyPods);
        conditions.add(Resharding.condition(in.plan(), status.getResharding(), in.job(), in.problems(), previous.getConditions(), generation, in.now()));
        status.setConditions(conditions);
        status.setPhase(phase(dq, in, pending));
        return status;
    }

    /** One word for kubectl get: a migration first, as it is what an on-call person must not miss. */
    private static String phase(DelayQueue dq, StatusInput in, List<String> pending) {
        if (in.plan() != null && in.plan().resharding()) {
            return "Resharding";
        }
        if (dq.getSpec().isSuspend()) {
            return "Suspended";
        }
        if (!in.problems().isEmpty()) {
            return "Degraded";
        }
        return pending.isEmpty() ? "Ready" : "Progressing";
    }

    /** The relay's own Deployment (mode Deployment), as desired by the spec and as the cluster has it; null in mode Workers. */
    static OutboxRelayStatus outboxRelay(DelayQueue dq, StatusInput in) {
        if (!OutboxRelaySpec.ownDeployment(dq.getSpec().getOutbox())) {
            return null;
        }
        String name = WorkerNames.outboxRelay(dq.getMetadata().getName());
        Deployment actual = in.deployments().get(name);
        int desired = dq.getSpec().getOutbox().getRelay().getReplicas();
        OutboxRelayStatus r = new OutboxRelayStatus();
        r.setName(name);
        r.setReplicas(desired);
        r.setReadyReplicas(readyReplicas(actual));
        r.setReady(rolledOut(actual, desired));
        return r;
    }

    private static List<Condition> conditions(DelayQueue dq, StatusInput in, List<Condition> before, long generation,
                                              List<String> notRolledOut, List<String> pending, OutboxRelayStatus relay,
                                              int deployments, int readyPods) {
        boolean suspended = dq.getSpec().isSuspend();
        List<Problem> problems = in.problems();
        Instant now = in.now();

        Condition degraded = problems.isEmpty()
                ? Conditions.next(before, Conditions.DEGRADED, false, "AsExpected", "", generation, now)
                : Conditions.next(before, Conditions.DEGRADED, true, problems.get(0).reasonText(),
                        problems.stream().map(Problem::message).collect(Collectors.joining("; ")), generation, now);

        Condition paused = suspended
                ? Conditions.next(before, Conditions.PAUSED, true, "Suspended",
                        "spec.suspend is true: every worker Deployment is scaled to zero; tasks wait in Redis", generation, now)
                : Conditions.next(before, Conditions.PAUSED, false, "Running", "", generation, now);

        boolean resharding = in.plan() != null && in.plan().resharding();
        Condition progressing = resharding && pending.isEmpty()
                ? Conditions.next(before, Conditions.PROGRESSING, true, "Resharding",
                        "moving tasks from " + in.plan().from() + " to " + in.plan().to() + " shards", generation, now)
                : pending.isEmpty()
                ? Conditions.next(before, Conditions.PROGRESSING, false, "RolloutComplete",
                        "every worker Deployment" + (relay == null ? "" : " and the outbox relay's") + " has its desired pods, updated and ready",
                        generation, now)
                : Conditions.next(before, Conditions.PROGRESSING, true, "RollingOut",
                        "waiting for Deployments to roll out: " + String.join(", ", pending), generation, now);

        Condition ready;
        if (suspended) {
            ready = Conditions.next(before, Conditions.READY, false, "Suspended", "the DelayQueue is suspended", generation, now);
        } else if (!problems.isEmpty()) {
            ready = Conditions.next(before, Conditions.READY, false, problems.get(0).reasonText(), problems.get(0).message(), generation, now);
        } else if (!notRolledOut.isEmpty()) {
            ready = Conditions.next(before, Conditions.READY, false, "WorkersNotReady",
                    "worker Deployments not yet ready: " + String.join(", ", notRolledOut), generation, now);
        } else if (relay != null && !relay.isReady()) {
            ready = Conditions.next(before, Conditions.READY, false, "OutboxRelayNotReady",
                    "the outbox relay Deployment " + relay.getName() + " is not yet ready: " + relay.getReadyReplicas() + " of "
                            + relay.getReplicas() + " pod(s) ready; committed outbox rows wait in the database", generation, now);
        } else {
            ready = Conditions.next(before, Conditions.READY, true, "WorkersReady",
                    deployments + " worker Deployment(s), " + readyPods + " pod(s) ready"
                            + (relay == null ? "" : "; outbox relay " + relay.getReadyReplicas() + "/" + relay.getReplicas() + " ready"),
                    generation, now);
        }
        return Conditions.list(ready, progressing, degraded, paused);
    }

    /** Rolled out: the Deployment controller saw the latest spec and every pod is updated and ready. */
    static boolean rolledOut(Deployment actual, int desiredReplicas) {
        if (actual == null) {
            return false;
        }
        DeploymentStatus s = actual.getStatus();
        if (desiredReplicas == 0) {
            return s == null || Objects.requireNonNullElse(s.getReplicas(), 0) == 0;
        }
        if (s == null) {
            return false;
        }
        Long generation = actual.getMetadata().getGeneration();
        boolean observed = generation == null || s.getObservedGeneration() == null || s.getObservedGeneration() >= generation;
        Integer specReplicas = actual.getSpec() == null ? null : actual.getSpec().getReplicas();
        return observed
                && Objects.equals(specReplicas, desiredReplicas)
                && Objects.requireNonNullElse(s.getUpdatedReplicas(), 0) == desiredReplicas
                && Objects.requireNonNullElse(s.getReadyReplicas(), 0) == desiredReplicas
                && Objects.requireNonNullElse(s.getReplicas(), 0) == desiredReplicas;
    }

    private static int readyReplicas(Deployment actual) {
        return actual == null || actual.getStatus() == null ? 0 : Objects.requireNonNullElse(actual.getStatus().getReadyReplicas(), 0);
    }

    private static Optional<WorkerDeploymentStatus> previousWorker(DelayQueueStatus previous, String name) {
        return previous.getWorkerDeployments() == null ? Optional.empty()
                : previous.getWorkerDeployments().stream().filter(w -> name.equals(w.getName())).findFirst();
    }

    public static BacklogStatus backlog(QueueStats stats, Instant now) {
        BacklogStatus b = new BacklogStatus();
        b.setScheduled(stats.scheduled());
        b.setDue(stats.due());
        b.setInflight(stats.inflight());
        b.setDead(stats.dead());
        b.setOldestOverdueSeconds(stats.oldestOverdueMillis() / 1000.0);
        b.setObservedAt(now.toString());
        return b;
    }

    private static BacklogStatus total(List<WorkerDeploymentStatus> workers, Instant now) {
        BacklogStatus t = new BacklogStatus();
        for (WorkerDeploymentStatus w : workers) {
            // the old layout's ranges overlap the new one's, which cover every shard: count each shard once
            BacklogStatus b = Boolean.TRUE.equals(w.getRetiring()) ? null : w.getBacklog();
            if (b != null) {
                t.setScheduled(t.getScheduled() + b.getScheduled());
                t.setDue(t.getDue() + b.getDue());
                t.setInflight(t.getInflight() + b.getInflight());
                t.setDead(t.getDead() + b.getDead());
                t.setOldestOverdueSeconds(Math.max(t.getOldestOverdueSeconds(), b.getOldestOverdueSeconds()));
            }
        }
        t.setObservedAt(now.toString());
        return t;
    }

    /** The queue's forecast: each shard once, so the old layout's ranges are left out while the queue grows. */
    private static Optional<ForecastStatus> forecast(StatusInput in) {
        List<DueForecast> ranges = in.ranges().stream().filter(r -> !in.retiring(r))
                .map(r -> in.reading().forecastOf(r)).flatMap(Optional::stream).toList();
        if (ranges.isEmpty()) {
            return Optional.empty();
        }
        ForecastStatus f = forecast(DueForecast.combine(ranges), in.now());
        MeasuredFleet fleet = in.fleet();
        fleet.podStartup().ifPresent(d -> f.setPodStartup(DurationText.format(d)));
        fleet.tasksPerReplicaPerSecond().ifPresent(rate -> f.setTasksPerReplicaPerSecond(Math.round(rate * 100) / 100.0));
        AutoscalingSpec autoscaling = in.resource().getSpec().getAutoscaling();
        if (autoscaling != null && autoscaling.getMode() == AutoscalingMode.Forecast) {
            Duration lead = ForecastPolicy.of(autoscaling).with(fleet).leadTime();
            f.setLeadTime(DurationText.format(lead));
            // the arrival slice's start is read for the decision only: the status shows the windows a person set
            java.util.Set<String> shown = new java.util.HashSet<>();
            ForecastPolicy.windowsFor(autoscaling).forEach(w -> shown.add(DurationText.format(w)));
            shown.add(DurationText.format(lead));
            f.setWindows(f.getWindows().stream().filter(w -> shown.contains(w.getWithin())).toList());
        }
        return Optional.of(f);
    }

    /** What the last status remembers of the fleet's measurements (a Deployment at zero has no pods to measure). */
    public static MeasuredFleet remembered(DelayQueueStatus status, Duration checkInterval) {
        ForecastStatus f = status == null ? null : status.getForecast();
        Optional<Duration> startup = Optional.empty();
        OptionalDouble rate = OptionalDouble.empty();
        if (f != null && f.getPodStartup() != null) {
            // null when written by hand as no duration: measured again at the next look
            startup = Optional.ofNullable(DurationText.parse(f.getPodStartup()));
        }
        if (f != null && f.getTasksPerReplicaPerSecond() != null && f.getTasksPerReplicaPerSecond() > 0) {
            rate = OptionalDouble.of(f.getTasksPerReplicaPerSecond());
        }
        return new MeasuredFleet(startup, rate, checkInterval);
    }

    public static ForecastStatus forecast(DueForecast forecast, Instant now) {
        ForecastStatus f = new ForecastStatus();
        f.setWindows(forecast.windows().stream()
                .map(w -> new ForecastWindowStatus(DurationText.format(w.length()), w.tasks())).toList());
        f.setNextDueAt(forecast.nextDue().isPresent() ? Instant.ofEpochMilli(forecast.nextDueAt()).toString() : null);
        f.setObservedAt(now.toString());
        return f;
    }

    private static RedisStatus redis(DelayQueue dq, StatusInput in, DelayQueueStatus previous) {
        RedisStatus r = new RedisStatus();
        r.setUrl(RedisEndpoint.redact(dq.getSpec().getRedis().getUrl()));
        if (in.reading() != null && in.reading().facts() != null) {
            r.setVersion(in.reading().facts().version());
            r.setMaxmemoryPolicy(in.reading().facts().maxmemoryPolicy());
            r.setPersistence(in.reading().facts().persistence());
            List<String> warnings = in.reading().facts().warnings().stream().map(Problem::message).toList();
            r.setWarnings(warnings.isEmpty() ? null : warnings);
        } else if (previous.getRedis() != null) {
            r.setVersion(previous.getRedis().getVersion());
            r.setMaxmemoryPolicy(previous.getRedis().getMaxmemoryPolicy());
            r.setPersistence(previous.getRedis().getPersistence());
            r.setWarnings(previous.getRedis().getWarnings());
        }
        return r;
    }
}
