package io.delayq.operator.status;

import io.delayq.backlog.DueForecast;
import io.delayq.operator.autoscaling.MeasuredFleet;
import io.delayq.backlog.DueWindow;
import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.redis.RedisFacts;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StatusComposerTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final List<ShardRange> RANGES = List.of(new ShardRange(0, 3), new ShardRange(4, 7));
    private static final Map<String, ScalingDecision> TWO_EACH = Map.of(
            "orders-worker-0-3", new ScalingDecision(2, null, null), "orders-worker-4-7", new ScalingDecision(2, null, null));

    private static Deployment deployment(String name, int replicas, int ready) {
        return new DeploymentBuilder().withNewMetadata().withName(name).withGeneration(1L).endMetadata()
                .withNewSpec().withReplicas(replicas).endSpec()
                .withNewStatus().withObservedGeneration(1L).withReplicas(replicas).withUpdatedReplicas(replicas).withReadyReplicas(ready).endStatus()
                .build();
    }

    private static Map<String, Deployment> deployments(int ready) {
        Map<String, Deployment> m = new LinkedHashMap<>();
        m.put("orders-worker-0-3", deployment("orders-worker-0-3", 2, ready));
        m.put("orders-worker-4-7", deployment("orders-worker-4-7", 2, ready));
        return m;
    }

    private static QueueReading reading(long dueLow, long dueHigh) {
        Map<ShardRange, QueueStats> backlog = new LinkedHashMap<>();
        backlog.put(RANGES.get(0), new QueueStats("orders", List.of(
                new ShardStats(0, 10_000, 5, dueLow, 1, 0, 4_000), new ShardStats(1, 10_000, 0, 0, 0, 2, -1))));
        backlog.put(RANGES.get(1), new QueueStats("orders", List.of(new ShardStats(4, 10_000, 7, dueHigh, 0, 0, 9_000))));
        return new QueueReading(backlog, new RedisFacts("7.2.4", "noeviction", "off"), null);
    }

    private static DelayQueueStatus compose(DelayQueue dq, Map<String, Deployment> actual, QueueReading reading, List<Problem> problems) {
        return StatusComposer.compose(new StatusInput(dq, RANGES, actual, TWO_EACH, reading, problems, NOW));
    }

    private static Condition condition(DelayQueueStatus s, String type) {
        return Conditions.find(s.getConditions(), type).orElseThrow();
    }

    @Test
    void allWorkersReadyAndNoProblemMeansReady() {
        DelayQueueStatus s = compose(DelayQueues.orders(), deployments(2), reading(3, 4), List.of());

        assertThat(condition(s, "Ready").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("WorkersReady");
        assertThat(condition(s, "Progressing").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Degraded").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Paused").getStatus()).isEqualTo("False");
        assertThat(s.getObservedGeneration()).isEqualTo(1L);
        assertThat(s.getWorkers()).isEqualTo("4/4");
        assertThat(s.getReplicas()).isEqualTo(2);
        assertThat(s.getSelector()).isEqualTo("app.kubernetes.io/name=delayq-worker,app.kubernetes.io/instance=orders");
    }

    @Test
    void backlogIsSummedPerDeploymentAndInTotal() {
        DelayQueueStatus s = compose(DelayQueues.orders(), deployments(2), reading(3, 4), List.of());

        assertThat(s.getBacklog().getDue()).isEqualTo(7);
        assertThat(s.getBacklog().getScheduled()).isEqualTo(12);
        assertThat(s.getBacklog().getInflight()).isEqualTo(1);
        assertThat(s.getBacklog().getDead()).isEqualTo(2);
        assertThat(s.getBacklog().getOldestOverdueSeconds()).isEqualTo(6.0);
        assertThat(s.getWorkerDeployments()).extracting(w -> w.getBacklog().getDue()).containsExactly(3L, 4L);
        assertThat(s.getWorkerDeployments().get(1).getShardFrom()).isEqualTo(4);
        assertThat(s.getWorkerDeployments().get(1).getShardTo()).isEqualTo(7);
        assertThat(s.getRedis().getWarnings()).singleElement().asString().contains("persistence is off");
    }

    @Test
    void podsNotYetReadyMeanProgressing() {
        DelayQueueStatus s = compose(DelayQueues.orders(), deployments(1), reading(0, 0), List.of());

        assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("WorkersNotReady");
        assertThat(condition(s, "Progressing").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Progressing").getMessage()).contains("orders-worker-0-3", "orders-worker-4-7");
        assertThat(s.getWorkers()).isEqualTo("2/4");
    }

    @Test
    void aProblemMeansDegradedWithItsReason() {
        Problem down = new Problem(Reason.REDIS_UNAVAILABLE, "cannot read the queue from Redis at redis://r:6379: refused");

        DelayQueueStatus s = compose(DelayQueues.orders(), deployments(2), QueueReading.failed(down), List.of(down));

        assertThat(condition(s, "Degraded").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Degraded").getReason()).isEqualTo("RedisUnavailable");
        assertThat(condition(s, "Degraded").getMessage()).contains("refused");
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("RedisUnavailable");
    }

    @Test
    void withoutANewReadingTheLastKnownBacklogStays() {
        DelayQueue dq = DelayQueues.orders();
        dq.setStatus(compose(dq, deployments(2), reading(3, 4), List.of()));
        Problem down = new Problem(Reason.REDIS_UNAVAILABLE, "down");

        DelayQueueStatus s = compose(dq, deployments(2), QueueReading.failed(down), List.of(down));

        assertThat(s.getBacklog().getDue()).isEqualTo(7);
        assertThat(s.getWorkerDeployments().get(0).getBacklog().getDue()).isEqualTo(3);
    }

    @Test
    void suspendedMeansPausedAndNotReady() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setSuspend(true);
        Map<String, ScalingDecision> zero = Map.of("orders-worker-0-3", new ScalingDecision(0, null, null),
                "orders-worker-4-7", new ScalingDecision(0, null, null));
        Map<String, Deployment> scaledDown = Map.of("orders-worker-0-3", deployment("orders-worker-0-3", 0, 0),
                "orders-worker-4-7", deployment("orders-worker-4-7", 0, 0));

        DelayQueueStatus s = StatusComposer.compose(new StatusInput(dq, RANGES, scaledDown, zero, reading(1, 1), List.of(), NOW));

        assertThat(condition(s, "Paused").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Paused").getReason()).isEqualTo("Suspended");
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("Suspended");
        assertThat(condition(s, "Progressing").getStatus()).isEqualTo("False");
        assertThat(s.getWorkers()).isEqualTo("0/0");
    }

    @Test
    void transitionTimeMovesOnlyWhenAConditionFlips() {
        DelayQueue dq = DelayQueues.orders();
        dq.setStatus(compose(dq, deployments(2), reading(0, 0), List.of()));
        Instant later = NOW.plus(Duration.ofMinutes(10));

        DelayQueueStatus same = StatusComposer.compose(new StatusInput(dq, RANGES, deployments(2), TWO_EACH, reading(0, 0), List.of(), later));
        DelayQueueStatus flipped = StatusComposer.compose(new StatusInput(dq, RANGES, deployments(1), TWO_EACH, reading(0, 0), List.of(), later));

        assertThat(condition(same, "Ready").getLastTransitionTime()).isEqualTo(NOW.toString());
        assertThat(condition(flipped, "Ready").getLastTransitionTime()).isEqualTo(later.toString());
    }

    @Test
    void aDeploymentWhoseControllerHasNotSeenTheLatestSpecIsNotRolledOut() {
        Deployment stale = deployment("d", 2, 2);
        stale.getMetadata().setGeneration(2L);

        assertThat(StatusComposer.rolledOut(stale, 2)).isFalse();
        assertThat(StatusComposer.rolledOut(deployment("d", 2, 2), 2)).isTrue();
        assertThat(StatusComposer.rolledOut(null, 0)).isFalse();
    }

    @Test
    void theForecastOfTheRangesAddsUpAndTheDecisionsReasonIsShown() {
        QueueReading counts = reading(3, 4);
        Map<ShardRange, DueForecast> forecast = new LinkedHashMap<>();
        long at = NOW.toEpochMilli();
        forecast.put(RANGES.get(0), new DueForecast(at, at + 90_000, List.of(new DueWindow(Duration.ofMinutes(1), 0),
                new DueWindow(Duration.ofMinutes(5), 40))));
        forecast.put(RANGES.get(1), new DueForecast(at, at + 30_000, List.of(new DueWindow(Duration.ofMinutes(1), 2),
                new DueWindow(Duration.ofMinutes(5), 2))));
        QueueReading reading = new QueueReading(counts.backlog(), counts.facts(), null, null, forecast);
        Map<String, ScalingDecision> decisions = Map.of(
                "orders-worker-0-3", new ScalingDecision(2, null, null, "40 tasks due within 5m (0.13/s) at 0.05/s per replica need 3"),
                "orders-worker-4-7", new ScalingDecision(2, null, null));

        DelayQueueStatus s = StatusComposer.compose(new StatusInput(DelayQueues.orders(), RANGES, deployments(2), decisions, reading,
                List.of(), NOW));

        assertThat(s.getForecast().getWindows()).extracting(w -> w.getWithin() + "=" + w.getTasks()).containsExactly("1m=2", "5m=42");
        assertThat(s.getForecast().getNextDueAt()).isEqualTo("2030-01-01T00:00:30Z");
        assertThat(s.getWorkerDeployments().get(0).getScaleReason()).startsWith("40 tasks due within 5m");
        assertThat(s.getWorkerDeployments().get(1).getScaleReason()).isNull();

        DelayQueue later = DelayQueues.orders();
        later.setStatus(s);
        assertThat(compose(later, deployments(2), QueueReading.failed(new Problem(Reason.REDIS_UNAVAILABLE, "down")), List.of()).getForecast())
                .as("Redis unreachable: the last forecast stays").isSameAs(s.getForecast());
    }

    @Test
    void theMeasuredFleetIsShownAndRememberedForTheNextCheck() {
        QueueReading counts = reading(0, 0);
        long at = NOW.toEpochMilli();
        Map<ShardRange, DueForecast> forecast = new LinkedHashMap<>();
        for (ShardRange r : RANGES) {
            forecast.put(r, new DueForecast(at, -1, List.of(new DueWindow(Duration.ofMinutes(1), 0))));
        }
        QueueReading reading = new QueueReading(counts.backlog(), counts.facts(), null, null, forecast);
        DelayQueue dq = DelayQueues.orders();
        io.delayq.operator.resource.AutoscalingSpec autoscaling = new io.delayq.operator.resource.AutoscalingSpec();
        autoscaling.setMode(io.delayq.operator.resource.AutoscalingMode.Forecast);
        autoscaling.setWarmup("30s");
        autoscaling.setHorizon("15m");
        dq.getSpec().setAutoscaling(autoscaling);
        MeasuredFleet fleet = new MeasuredFleet(java.util.Optional.of(Duration.ofSeconds(42)), java.util.OptionalDouble.of(123.456),
                Duration.ofSeconds(10));

        DelayQueueStatus s = StatusComposer.compose(new StatusInput(dq, RANGES, deployments(2), TWO_EACH, reading, List.of(), NOW,
                null, null, java.util.Optional.empty(), fleet));

        assertThat(s.getForecast().getPodStartup()).isEqualTo("42s");
        assertThat(s.getForecast().getTasksPerReplicaPerSecond()).isEqualTo(123.46);
        assertThat(s.getForecast().getLeadTime()).as("42 s to start + a 10 s check").isEqualTo("52s");
        MeasuredFleet remembered = StatusComposer.remembered(s, Duration.ofSeconds(10));
        assertThat(remembered.podStartup()).contains(Duration.ofSeconds(42));
        assertThat(remembered.tasksPerReplicaPerSecond()).hasValue(123.46);
        assertThat(StatusComposer.remembered(null, Duration.ofSeconds(10)).podStartup()).isEmpty();
    }

    private static DelayQueue ordersWithOwnRelay() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setOutbox(io.delayq.operator.testing.Deliveries.outboxInItsOwnDeployment());
        return dq;
    }

    @Test
    void anOutboxRelayDeploymentNotYetReadyKeepsTheQueueFromReadyAndSaysHowFarItIs() {
        Map<String, Deployment> actual = deployments(2);
        actual.put("orders-outbox-relay", deployment("orders-outbox-relay", 2, 1));

        DelayQueueStatus s = compose(ordersWithOwnRelay(), actual, reading(3, 4), List.of());

        assertThat(s.getOutboxRelay().getName()).isEqualTo("orders-outbox-relay");
        assertThat(s.getOutboxRelay().getReplicas()).isEqualTo(2);
        assertThat(s.getOutboxRelay().getReadyReplicas()).isEqualTo(1);
        assertThat(s.getOutboxRelay().isReady()).isFalse();
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("False");
        assertThat(condition(s, "Ready").getReason()).isEqualTo("OutboxRelayNotReady");
        assertThat(condition(s, "Ready").getMessage()).contains("orders-outbox-relay", "1 of 2 pod(s) ready");
        assertThat(condition(s, "Progressing").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Progressing").getMessage()).contains("orders-outbox-relay");
        assertThat(s.getPhase()).isEqualTo("Progressing");
        assertThat(s.getWorkers()).as("worker pods only").isEqualTo("4/4");
    }

    @Test
    void anOutboxRelayDeploymentTheClusterHasNotCreatedYetIsNotReady() {
        DelayQueueStatus s = compose(ordersWithOwnRelay(), deployments(2), reading(3, 4), List.of());

        assertThat(s.getOutboxRelay().getReadyReplicas()).isZero();
        assertThat(s.getOutboxRelay().isReady()).isFalse();
        assertThat(condition(s, "Ready").getReason()).isEqualTo("OutboxRelayNotReady");
    }

    @Test
    void aReadyOutboxRelayDeploymentLetsTheQueueBeReady() {
        Map<String, Deployment> actual = deployments(2);
        actual.put("orders-outbox-relay", deployment("orders-outbox-relay", 2, 2));

        DelayQueueStatus s = compose(ordersWithOwnRelay(), actual, reading(3, 4), List.of());

        assertThat(s.getOutboxRelay().isReady()).isTrue();
        assertThat(s.getOutboxRelay().getReadyReplicas()).isEqualTo(2);
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Ready").getMessage()).contains("outbox relay 2/2 ready");
        assertThat(s.getPhase()).isEqualTo("Ready");
    }

    @Test
    void workersNotReadyAreNamedBeforeTheRelay() {
        Map<String, Deployment> actual = deployments(1);
        actual.put("orders-outbox-relay", deployment("orders-outbox-relay", 2, 0));

        DelayQueueStatus s = compose(ordersWithOwnRelay(), actual, reading(3, 4), List.of());

        assertThat(condition(s, "Ready").getReason()).isEqualTo("WorkersNotReady");
        assertThat(condition(s, "Progressing").getMessage()).contains("orders-worker-0-3", "orders-outbox-relay");
    }

    @Test
    void withoutARelayDeploymentTheStatusHasNoRelay() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setOutbox(io.delayq.operator.testing.Deliveries.outboxWithEverything());

        DelayQueueStatus s = compose(dq, deployments(2), reading(3, 4), List.of());

        assertThat(s.getOutboxRelay()).isNull();
        assertThat(condition(s, "Ready").getStatus()).isEqualTo("True");
        assertThat(condition(s, "Ready").getMessage()).doesNotContain("relay");
    }
}
