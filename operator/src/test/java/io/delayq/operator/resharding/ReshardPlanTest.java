package io.delayq.operator.resharding;

import io.delayq.layout.Layout;
import io.delayq.operator.resharding.ReshardPlan.Phase;
import io.delayq.operator.sharding.WorkerRange;
import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReshardPlanTest {

    private static Layout steady(int shards) {
        return Layout.initial(shards);
    }

    private static Layout migrating(int from, int to) {
        return Layout.of(1, to, from + "," + to, from + " " + to, 120, 80);
    }

    private static WorkerRange w(int from, int to, int shards, boolean retiring) {
        return new WorkerRange(new ShardRange(from, to), shards, retiring);
    }

    @Test
    void aQueueWithTheSpecsCountIsSteadyOnTheSpecsSplit() {
        ReshardPlan plan = ReshardPlan.of(8, 4, steady(8));

        assertThat(plan.phase()).isEqualTo(Phase.STEADY);
        assertThat(plan.moveTo()).isZero();
        assertThat(plan.refusal()).isNull();
        assertThat(plan.workers()).containsExactly(w(0, 3, 8, false), w(4, 7, 8, false));
    }

    @Test
    void anUnknownLayoutIsTakenAsTheSpecs() {
        assertThat(ReshardPlan.of(8, 4, null).workers()).containsExactly(w(0, 3, 8, false), w(4, 7, 8, false));
    }

    @Test
    void aLargerSpecStartsTheMoverAndKeepsTheOldDeploymentsUntilTheMetaHashKnowsTheNewCount() {
        ReshardPlan plan = ReshardPlan.of(16, 4, steady(4));

        assertThat(plan.phase()).isEqualTo(Phase.STARTING);
        assertThat(plan.moveTo()).isEqualTo(16);
        assertThat(plan.from()).isEqualTo(4);
        assertThat(plan.to()).isEqualTo(16);
        assertThat(plan.workers()).as("a worker told 16 shards would refuse a meta hash that says 4").containsExactly(w(0, 3, 4, false));
    }

    @Test
    void whileMovingTheNewRangesRunBesideTheOldOnesAndASharedRangeKeepsItsOldDeployment() {
        ReshardPlan plan = ReshardPlan.of(16, 4, migrating(4, 16));

        assertThat(plan.phase()).isEqualTo(Phase.MOVING);
        assertThat(plan.moveTo()).isEqualTo(16);
        assertThat(plan.workers()).containsExactly(w(0, 3, 4, false), w(4, 7, 16, false), w(8, 11, 16, false), w(12, 15, 16, false));
    }

    @Test
    void oldRangesTheNewSplitDoesNotHaveAreRetiringAndNoNameRepeats() {
        // 4 shards by 3: 0-1, 2-3; 16 shards by 3: 0-2, 3-5, 6-8, 9-11, 12-13, 14-15
        ReshardPlan plan = ReshardPlan.of(16, 3, migrating(4, 16));

        assertThat(plan.workers()).filteredOn(WorkerRange::retiring).containsExactly(w(0, 1, 4, true), w(2, 3, 4, true));
        assertThat(plan.workers()).filteredOn(x -> !x.retiring()).extracting(WorkerRange::shards).containsOnly(16);
        assertThat(plan.ranges()).doesNotHaveDuplicates();
    }

    @Test
    void everyShardOfBothLayoutsHasAWorkerInEveryPhaseForEverySplit() {
        int[][] grows = {{1, 2}, {4, 16}, {6, 16}, {16, 64}, {3, 1024}};
        for (int[] g : grows) {
            for (int perWorker : List.of(1, 2, 3, 4, 7, 16, 64)) {
                for (ReshardPlan plan : List.of(ReshardPlan.of(g[1], perWorker, steady(g[0])),
                        ReshardPlan.of(g[1], perWorker, migrating(g[0], g[1])), ReshardPlan.of(g[1], perWorker, steady(g[1])))) {
                    BitSet covered = new BitSet();
                    plan.ranges().forEach(r -> covered.set(r.from(), r.to() + 1));
                    int served = plan.phase() == Phase.STARTING ? g[0] : g[1];
                    assertThat(covered.cardinality()).as(plan.toString()).isEqualTo(served);
                    assertThat(covered.nextClearBit(0)).as(plan.toString()).isEqualTo(served);
                }
            }
        }
    }

    @Test
    void aSecondChangeWhileOneRunsIsRefusedAndTheRunningOneGoesOn() {
        ReshardPlan plan = ReshardPlan.of(32, 4, migrating(4, 16));

        assertThat(plan.phase()).isEqualTo(Phase.MOVING);
        assertThat(plan.moveTo()).as("the mover finishes 4 -> 16").isEqualTo(16);
        assertThat(plan.to()).isEqualTo(16);
        assertThat(plan.refusal()).contains("spec.shards", "from 4 to 16 shards is running", "the change to 32 waits");
        assertThat(plan.workers()).extracting(WorkerRange::shards).containsOnly(4, 16);
    }

    @Test
    void afterTheFirstFinishesTheSecondStarts() {
        ReshardPlan plan = ReshardPlan.of(32, 4, Layout.of(2, 16, "4,16", "", 200, -1));

        assertThat(plan.phase()).isEqualTo(Phase.STARTING);
        assertThat(plan.from()).isEqualTo(16);
        assertThat(plan.moveTo()).isEqualTo(32);
        assertThat(plan.refusal()).isNull();
    }

    @Test
    void afterTheMigrationOnlyTheNewLayoutsDeploymentsRemain() {
        ReshardPlan plan = ReshardPlan.of(16, 3, Layout.of(2, 16, "4,16", "", 200, -1));

        assertThat(plan.phase()).isEqualTo(Phase.STEADY);
        assertThat(plan.workers()).noneMatch(WorkerRange::retiring).extracting(WorkerRange::shards).containsOnly(16);
        assertThat(plan.workers()).hasSize(6);
    }

    @Test
    void aShardsPerWorkerAboveTheOldCountGivesTheOldLayoutOneRange() {
        assertThat(ReshardPlan.of(16, 8, steady(4)).workers()).containsExactly(w(0, 3, 4, false));
        assertThat(ReshardPlan.of(16, 8, migrating(4, 16)).workers())
                .containsExactly(w(0, 7, 16, false), w(8, 15, 16, false), w(0, 3, 4, true));
    }
}
