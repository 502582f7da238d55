package io.delayq.operator.upgrade;

import io.delayq.layout.Layout;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.ProtocolUpgradeStatus;
import io.delayq.operator.status.Notice;
import io.delayq.operator.upgrade.UpgradePlan.Action;
import io.delayq.upgrade.ProtocolUpgrade;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class UpgradePlanTest {
    private static final Layout STEADY = Layout.initial(4);
    private static final Layout MIGRATING = Layout.of(1, 8, "4,8", "4 8", 10, 20);

    private static ProtocolUpgradeStatus unfinished() {
        return new ProtocolUpgradeStatus(2, 3, 10, 1, 3, "running", false);
    }

    private static ProtocolUpgradeStatus finished() {
        return new ProtocolUpgradeStatus(2, 3, 10, 1, 0, "done", true);
    }

    @Test
    void protocol3AskedOfAQueueOnProtocol2RunsTheUpgrade() {
        assertThat(UpgradePlan.of(3, 2, STEADY, false, null).action()).isEqualTo(Action.UPGRADE);
    }

    @Test
    void anAbsentOrSecondProtocolLeavesAQueueAsItIs() {
        assertThat(UpgradePlan.of(null, 2, STEADY, false, null).action()).isEqualTo(Action.NONE);
        assertThat(UpgradePlan.of(2, 2, STEADY, false, null).action()).isEqualTo(Action.NONE);
        assertThat(UpgradePlan.of(null, 3, STEADY, false, null).action()).isEqualTo(Action.NONE);
    }

    @Test
    void aQueueOnProtocol3RunsTheUpgradeAgainOnlyWhileTheLastOneHasNotFinished() {
        assertThat(UpgradePlan.of(3, 3, STEADY, false, unfinished()).action()).as("tasks of protocol 2 still in flight").isEqualTo(Action.UPGRADE);
        assertThat(UpgradePlan.of(3, 3, STEADY, false, finished()).action()).isEqualTo(Action.NONE);
        assertThat(UpgradePlan.of(3, 3, STEADY, false, null).action()).as("created on protocol 3").isEqualTo(Action.NONE);
    }

    @Test
    void theUpgradeWaitsWhileTheShardCountGrows() {
        UpgradePlan starting = UpgradePlan.of(3, 2, STEADY, true, null);
        UpgradePlan moving = UpgradePlan.of(3, 2, MIGRATING, true, null);

        assertThat(starting.action()).isEqualTo(Action.WAIT);
        assertThat(moving.action()).isEqualTo(Action.WAIT);
        assertThat(moving.message()).startsWith("spec.protocol: ").contains("waits for the shard count to finish growing");
    }

    @Test
    void anUnfinishedUpgradeOfASwitchedQueueWaitsOnlyWhileAMigrationRuns() {
        assertThat(UpgradePlan.of(3, 3, MIGRATING, false, unfinished()).action()).isEqualTo(Action.WAIT);
        assertThat(UpgradePlan.of(3, 3, STEADY, true, unfinished()).action()).as("spec.shards grown, not begun yet").isEqualTo(Action.UPGRADE);
        assertThat(UpgradePlan.of(3, 3, MIGRATING, false, finished()).action()).isEqualTo(Action.NONE);
        assertThat(UpgradePlan.of(3, 3, MIGRATING, false, null).action()).as("created on protocol 3, growing").isEqualTo(Action.NONE);
    }

    @Test
    void aDowngradeIsRefusedNamingTheField() {
        UpgradePlan plan = UpgradePlan.of(2, 3, STEADY, false, null);

        assertThat(plan.action()).isEqualTo(Action.REFUSED);
        assertThat(UpgradeProgress.problems(plan, Optional.empty())).extracting(Problem::reason).containsExactly(Reason.PROTOCOL_DOWNGRADE_REFUSED);
        assertThat(plan.message()).startsWith("spec.protocol: ").contains("never downgraded");
    }

    @Test
    void redisNotReadDecidesNothing() {
        assertThat(UpgradePlan.of(3, 0, null, false, unfinished()).action()).isEqualTo(Action.NONE);
    }

    @Test
    void statusFollowsTheJobFromStartToFinishAndTheEventsMarkBothEnds() {
        UpgradePlan plan = UpgradePlan.of(3, 2, STEADY, false, null);
        ProtocolUpgradeStatus starting = UpgradeProgress.status(plan, Optional.empty(), null);
        ProtocolUpgradeStatus running = UpgradeProgress.status(plan,
                Optional.of(new UpgradeJob.State(true, new ProtocolUpgrade.Result(120, 2, 5, 9), null, null)), starting);
        ProtocolUpgradeStatus done = UpgradeProgress.status(UpgradePlan.of(3, 3, STEADY, false, running),
                Optional.of(new UpgradeJob.State(false, new ProtocolUpgrade.Result(125, 2, 0, 12), null, Instant.EPOCH)), running);

        assertThat(starting.isFinished()).isFalse();
        assertThat(starting.getInFlight()).isEqualTo(-1);
        assertThat(running.getWaitingAdopted()).isEqualTo(120);
        assertThat(running.getInFlight()).isEqualTo(5);
        assertThat(running.getProgress()).isEqualTo("running: 5 task(s) of protocol 2 still in flight");
        assertThat(done.isFinished()).isTrue();
        assertThat(done.getProgress()).isEqualTo("done: 125 waiting task(s) and 2 dead letter(s) adopted");

        assertThat(UpgradeProgress.notices(withUpgrade(null), withUpgrade(starting))).extracting(Notice::reason).containsExactly("ProtocolUpgradeStarted");
        assertThat(UpgradeProgress.notices(withUpgrade(starting), withUpgrade(running))).isEmpty();
        assertThat(UpgradeProgress.notices(withUpgrade(running), withUpgrade(done))).extracting(Notice::reason).containsExactly("ProtocolUpgraded");
        assertThat(UpgradeProgress.notices(withUpgrade(done), withUpgrade(done))).isEmpty();
    }

    @Test
    void aFailedJobIsAProblemAndTheStatusSaysItResumes() {
        UpgradePlan plan = UpgradePlan.of(3, 2, STEADY, false, null);
        Optional<UpgradeJob.State> failed = Optional.of(new UpgradeJob.State(false, null, "queue 'q' is being resharded", Instant.EPOCH));

        assertThat(UpgradeProgress.problems(plan, failed)).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(Reason.PROTOCOL_UPGRADE_FAILED);
            assertThat(p.message()).contains("is being resharded");
        });
        assertThat(UpgradeProgress.status(plan, failed, null).getProgress()).isEqualTo("failed (queue 'q' is being resharded); resumes shortly");
    }

    @Test
    void waitingKeepsNoCountsOfAFinishedUpgrade() {
        ProtocolUpgradeStatus waiting = UpgradeProgress.status(UpgradePlan.of(3, 2, MIGRATING, true, null), Optional.empty(), null);

        assertThat(waiting.getProgress()).isEqualTo("waiting: the shard count grows first");
        assertThat(waiting.isFinished()).isFalse();
    }

    private static DelayQueueStatus withUpgrade(ProtocolUpgradeStatus upgrade) {
        DelayQueueStatus status = new DelayQueueStatus();
        status.setUpgrade(upgrade);
        return status;
    }
}
