package io.delayq.operator.status;

import io.delayq.layout.Layout;
import io.delayq.operator.autoscaling.ScalingDecision;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resharding.ReshardPlan;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.workers.WorkerNames;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** status.phase, status.resharding, the Resharding condition and its Events, from plans and layouts: no client. */
class ReshardingStatusTest {
    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

    private static DelayQueueStatus compose(DelayQueue dq, Layout layout, List<Problem> problems) {
        ReshardPlan plan = ReshardPlan.of(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker(), layout);
        Map<String, ScalingDecision> decisions = new LinkedHashMap<>();
        plan.ranges().forEach(r -> decisions.put(WorkerNames.deployment("orders", r), new ScalingDecision(1, null, null)));
        DelayQueueStatus s = StatusComposer.compose(new StatusInput(dq, plan.ranges(), Map.of(), decisions, null, problems, NOW,
                plan, layout, Optional.empty()));
        dq.setStatus(s);
        return s;
    }

    private static Condition resharding(DelayQueueStatus s) {
        return Conditions.find(s.getConditions(), Resharding.CONDITION).orElseThrow();
    }

    @Test
    void aGrowIsStartedThenMovingThenFinishedWithOneEventEach() {
        DelayQueue dq = DelayQueues.of("orders", 4, 4, "redis://r:6379");
        DelayQueueStatus steady = compose(dq, Layout.initial(4), List.of());
        assertThat(steady.getPhase()).isIn("Progressing", "Ready");
        assertThat(resharding(steady).getStatus()).isEqualTo("False");
        assertThat(steady.getResharding()).isNull();

        dq.getSpec().setShards(16);
        DelayQueueStatus starting = compose(dq, Layout.initial(4), List.of());
        assertThat(starting.getPhase()).isEqualTo("Resharding");
        assertThat(resharding(starting).getStatus()).isEqualTo("True");
        assertThat(resharding(starting).getReason()).isEqualTo(Resharding.STARTING);
        assertThat(Notices.between(steady, starting, List.of(), List.of())).extracting(Notice::reason).containsExactly("ReshardStarted");

        DelayQueueStatus moving = compose(dq, Layout.of(1, 16, "4,16", "4 16", 300, 700), List.of());
        assertThat(moving.getResharding().getMoved()).isEqualTo(300);
        assertThat(moving.getResharding().getLeft()).isEqualTo(700);
        assertThat(moving.getResharding().getProgress()).isEqualTo("4->16, 300 moved, 700 left");
        assertThat(resharding(moving).getReason()).isEqualTo(Resharding.MOVING);
        assertThat(resharding(moving).getMessage()).contains("growing from 4 to 16 shards", "300 moved, 700 left");
        assertThat(Notices.between(starting, moving, List.of(), List.of())).as("progress is not an Event").isEmpty();
        assertThat(moving.getWorkerDeployments()).extracting(WorkerDeploymentStatus::getName, WorkerDeploymentStatus::getShards)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("orders-worker-0-3", 4), org.assertj.core.groups.Tuple.tuple("orders-worker-4-7", 16),
                        org.assertj.core.groups.Tuple.tuple("orders-worker-8-11", 16), org.assertj.core.groups.Tuple.tuple("orders-worker-12-15", 16));

        DelayQueueStatus done = compose(dq, Layout.of(2, 16, "4,16", "", 1000, -1), List.of());
        assertThat(done.getPhase()).isNotEqualTo("Resharding");
        assertThat(done.getResharding().isFinished()).isTrue();
        assertThat(done.getResharding().getMoved()).isEqualTo(1000);
        assertThat(done.getResharding().getLeft()).isZero();
        assertThat(resharding(done).getStatus()).isEqualTo("False");
        assertThat(resharding(done).getReason()).isEqualTo(Resharding.FINISHED);
        assertThat(Notices.between(moving, done, List.of(), List.of())).extracting(Notice::reason, Notice::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("ReshardFinished", "grew from 4 to 16 shards, 1000 tasks moved"));
        assertThat(Notices.between(done, compose(dq, Layout.of(2, 16, "4,16", "", 1000, -1), List.of()), List.of(), List.of()))
                .as("a later look repeats nothing").isEmpty();
    }

    @Test
    void aSecondChangeIsRefusedOnceAsAWarningWhileTheFirstGoesOn() {
        DelayQueue dq = DelayQueues.of("orders", 16, 4, "redis://r:6379");
        DelayQueueStatus moving = compose(dq, Layout.of(1, 16, "4,16", "4 16", 10, 90), List.of());

        dq.getSpec().setShards(32);
        DelayQueueStatus refused = compose(dq, Layout.of(1, 16, "4,16", "4 16", 20, 80), List.of());

        assertThat(refused.getPhase()).isEqualTo("Resharding");
        assertThat(refused.getResharding().getTo()).isEqualTo(16);
        assertThat(resharding(refused).getStatus()).isEqualTo("True");
        assertThat(resharding(refused).getReason()).isEqualTo(Resharding.SECOND_CHANGE_REFUSED);
        assertThat(resharding(refused).getMessage()).startsWith("spec.shards: a migration from 4 to 16 shards is running; the change to 32 waits");
        assertThat(Notices.between(moving, refused, List.of(), List.of())).extracting(Notice::type, Notice::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Warning", "ReshardRefused"));
        assertThat(Notices.between(refused, compose(dq, Layout.of(1, 16, "4,16", "4 16", 30, 70), List.of()), List.of(), List.of()))
                .as("one Event per refusal").isEmpty();
    }

    @Test
    void aMigrationThatEndsAsTheNextBeginsIsFinishedAndStarted() {
        DelayQueue dq = DelayQueues.of("orders", 32, 4, "redis://r:6379");
        DelayQueueStatus first = compose(dq, Layout.of(1, 16, "4,16", "4 16", 10, 90), List.of());

        DelayQueueStatus second = compose(dq, Layout.of(2, 16, "4,16", "", 100, -1), List.of());

        assertThat(second.getResharding().getFrom()).isEqualTo(16);
        assertThat(second.getResharding().getTo()).isEqualTo(32);
        assertThat(Notices.between(first, second, List.of(), List.of())).extracting(Notice::reason, Notice::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple("ReshardFinished", "grew from 4 to 16 shards"),
                org.assertj.core.groups.Tuple.tuple("ReshardStarted", "growing from 16 to 32 shards: the new layout's worker Deployments start beside the old ones"));
    }

    @Test
    void aShrinkTheReaderRefusesShowsOnTheCondition() {
        DelayQueue dq = DelayQueues.of("orders", 8, 4, "redis://r:6379");
        Problem shrink = new Problem(Reason.SHARD_COUNT_MISMATCH, "spec.shards: queue 'orders' has 16 shards in Redis ...: shrinking is refused");

        DelayQueueStatus s = compose(dq, null, List.of(shrink));

        assertThat(resharding(s).getReason()).isEqualTo(Resharding.SHRINK_REFUSED);
        assertThat(resharding(s).getMessage()).contains("shrinking is refused");
        assertThat(Notices.resharding(null, s)).extracting(Notice::reason).containsExactly("ReshardRefused");
    }

    @Test
    void theTotalBacklogCountsEachShardOnceWhenOldAndNewRangesOverlap() {
        DelayQueue dq = DelayQueues.of("orders", 16, 3, "redis://r:6379");
        Layout layout = Layout.of(1, 16, "4,16", "4 16", 0, 0);
        ReshardPlan plan = ReshardPlan.of(16, 3, layout);
        Map<String, ScalingDecision> decisions = new LinkedHashMap<>();
        Map<ShardRange, io.delayq.backlog.QueueStats> backlog = new LinkedHashMap<>();
        for (ShardRange r : plan.ranges()) {
            decisions.put(WorkerNames.deployment("orders", r), new ScalingDecision(1, null, null));
            backlog.put(r, new io.delayq.backlog.QueueStats("orders", r.shards()
                    .mapToObj(i -> new io.delayq.backlog.ShardStats(i, 0, 0, 1, 0, 0, -1)).toList()));
        }
        var reading = new io.delayq.operator.redis.QueueReading(backlog, null, null, layout);

        DelayQueueStatus s = StatusComposer.compose(new StatusInput(dq, plan.ranges(), Map.of(), decisions, reading, List.of(), NOW,
                plan, layout, Optional.empty()));

        assertThat(s.getBacklog().getDue()).as("one due task per shard, 16 shards").isEqualTo(16);
        assertThat(s.getWorkerDeployments()).filteredOn(w -> Boolean.TRUE.equals(w.getRetiring()))
                .extracting(WorkerDeploymentStatus::getName).containsExactly("orders-worker-0-1", "orders-worker-2-3");
    }
}
