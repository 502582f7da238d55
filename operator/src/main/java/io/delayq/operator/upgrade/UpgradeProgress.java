package io.delayq.operator.upgrade;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.ProtocolUpgradeStatus;
import io.delayq.operator.status.Notice;
import io.delayq.upgrade.ProtocolUpgrade;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The status parts of an upgrade to protocol 3: {@code status.upgrade}, the problems it raises and the Events it
 * deserves, from the plan and the operator's upgrade job. Pure.
 */
public final class UpgradeProgress {

    private UpgradeProgress() {
    }

    /** The upgrade as status shows it: the running or waiting one, else the last one, else none. */
    public static ProtocolUpgradeStatus status(UpgradePlan plan, Optional<UpgradeJob.State> job, ProtocolUpgradeStatus previous) {
        if (plan.action() == UpgradePlan.Action.WAIT) {
            return of(previous == null || previous.isFinished() ? null : previous, "waiting: the shard count grows first", false);
        }
        if (plan.action() != UpgradePlan.Action.UPGRADE && !job.map(UpgradeJob.State::finished).orElse(false)) {
            return previous;
        }
        if (job.isEmpty()) {
            return of(previous, "starting", false);
        }
        UpgradeJob.State s = job.get();
        ProtocolUpgrade.Result last = s.last();
        ProtocolUpgradeStatus counts = last == null ? previous
                : new ProtocolUpgradeStatus(UpgradePlan.FROM, UpgradePlan.TO, last.waitingAdopted(), last.deadAdopted(), last.stillInFlight(), null, false);
        if (s.finished()) {
            return of(counts, "done: " + last.waitingAdopted() + " waiting task(s) and " + last.deadAdopted() + " dead letter(s) adopted", true);
        }
        if (s.failed()) {
            return of(counts, "failed (" + s.error() + "); resumes shortly", false);
        }
        return of(counts, last == null ? "running" : "running: " + last.stillInFlight() + " task(s) of protocol 2 still in flight", false);
    }

    /** What keeps the spec's protocol from being applied: a downgrade asked for, or an upgrade that failed. */
    public static List<Problem> problems(UpgradePlan plan, Optional<UpgradeJob.State> job) {
        List<Problem> problems = new ArrayList<>();
        if (plan.action() == UpgradePlan.Action.REFUSED) {
            problems.add(new Problem(Reason.PROTOCOL_DOWNGRADE_REFUSED, plan.message()));
        }
        if (plan.action() == UpgradePlan.Action.UPGRADE) {
            job.filter(UpgradeJob.State::failed).ifPresent(s -> problems.add(new Problem(Reason.PROTOCOL_UPGRADE_FAILED,
                    "spec.protocol: the upgrade to protocol 3 failed and is retried: " + s.error())));
        }
        return problems;
    }

    /** Started (status.upgrade appears, or a new one begins after a finished one) and finished. */
    public static List<Notice> notices(DelayQueueStatus before, DelayQueueStatus after) {
        ProtocolUpgradeStatus was = before == null ? null : before.getUpgrade();
        ProtocolUpgradeStatus now = after.getUpgrade();
        List<Notice> notices = new ArrayList<>();
        if (now != null && !now.isFinished() && (was == null || was.isFinished())) {
            notices.add(Notice.normal("ProtocolUpgradeStarted", "upgrading the queue to protocol 3 in place: " + now.getProgress()));
        }
        if (now != null && now.isFinished() && (was == null || !was.isFinished())) {
            notices.add(Notice.normal("ProtocolUpgraded", "the queue runs protocol 3: " + now.getProgress()));
        }
        return notices;
    }

    private static ProtocolUpgradeStatus of(ProtocolUpgradeStatus counts, String progress, boolean finished) {
        return counts == null
                ? new ProtocolUpgradeStatus(UpgradePlan.FROM, UpgradePlan.TO, 0, 0, -1, progress, finished)
                : new ProtocolUpgradeStatus(UpgradePlan.FROM, UpgradePlan.TO, counts.getWaitingAdopted(), counts.getDeadAdopted(),
                        counts.getInFlight(), progress, finished);
    }
}
