package io.delayq.operator.workers;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.operator.redis.QueueReading;
import io.delayq.operator.redis.RedisFacts;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.sharding.ShardPlan;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class DesiredWorkersTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    private static DesiredWorkers compute(DelayQueue dq, QueueReading reading) {
        return DesiredWorkers.compute(dq, ranges(dq), reading, Map.of(), new TreeMap<>(), "img", NOW);
    }

    private static List<ShardRange> ranges(DelayQueue dq) {
        return ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker());
    }

    static QueueReading backlog(Map<ShardRange, Long> dueByRange) {
        Map<ShardRange, QueueStats> stats = new LinkedHashMap<>();
        dueByRange.forEach((range, due) -> stats.put(range,
                new QueueStats("orders", List.of(new ShardStats(range.from(), 0, 0, due, 0, 0, -1)))));
        return new QueueReading(stats, new RedisFacts("7.2", "noeviction", "aof"), null);
    }

    @Test
    void oneDeploymentPerShardRangeWithSharedServiceAndBudget() {
        DelayQueue dq = DelayQueues.of("coupons", 10, 4, "redis://r:6379");
        DesiredWorkers desired = compute(dq, null);
        Service metricsService = WorkerMetricsService.desired(dq);
        PodDisruptionBudget disruptionBudget = WorkerDisruptionBudget.desired(dq);

        assertThat(desired.deployments().keySet()).containsExactly("coupons-worker-0-3", "coupons-worker-4-6", "coupons-worker-7-9");
        assertThat(metricsService.getMetadata().getName()).isEqualTo("coupons-worker-metrics");
        assertThat(metricsService.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(metricsService.getSpec().getSelector())
                .containsEntry("app.kubernetes.io/name", "delayq-worker").containsEntry("app.kubernetes.io/instance", "coupons");
        assertThat(disruptionBudget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(disruptionBudget.getMetadata().getOwnerReferences()).hasSize(1);
    }

    @Test
    void internalAutoscalingSizesEachDeploymentFromItsOwnBacklog() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().getAutoscaling().setTargetDuePerReplica(100);

        DesiredWorkers desired = compute(dq, backlog(Map.of(new ShardRange(0, 3), 250L, new ShardRange(4, 7), 0L)));

        assertThat(desired.deployments().get("orders-worker-0-3").getSpec().getReplicas()).isEqualTo(3);
        assertThat(desired.deployments().get("orders-worker-4-7").getSpec().getReplicas()).isEqualTo(1);
    }

    @Test
    void suspendScalesEveryDeploymentToZero() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().setSuspend(true);

        DesiredWorkers desired = compute(dq, backlog(Map.of(new ShardRange(0, 3), 5000L, new ShardRange(4, 7), 5000L)));

        assertThat(desired.deployments().values()).extracting(d -> d.getSpec().getReplicas()).containsOnly(0);
    }

    @Test
    void externalAutoscalingAppliesTheScaleSubresourceValue() {
        DelayQueue dq = DelayQueues.orders();
        dq.getSpec().getAutoscaling().setMode(AutoscalingMode.External);
        dq.getSpec().setReplicas(4);

        DesiredWorkers desired = compute(dq, backlog(Map.of(new ShardRange(0, 3), 1_000_000L, new ShardRange(4, 7), 0L)));

        assertThat(desired.deployments().values()).extracting(d -> d.getSpec().getReplicas()).containsOnly(4);
    }

    @Test
    void withoutABacklogReadingExistingDeploymentsKeepTheirSize() {
        DelayQueue dq = DelayQueues.orders();
        Deployment running = compute(dq, null).deployments().get("orders-worker-0-3");
        running.getSpec().setReplicas(6);

        DesiredWorkers desired = DesiredWorkers.compute(dq, ranges(dq), null, Map.of("orders-worker-0-3", running), new TreeMap<>(), "img", NOW);

        assertThat(desired.deployments().get("orders-worker-0-3").getSpec().getReplicas()).isEqualTo(6);
        assertThat(desired.deployments().get("orders-worker-4-7").getSpec().getReplicas()).as("new: the minimum").isEqualTo(1);
    }
}
