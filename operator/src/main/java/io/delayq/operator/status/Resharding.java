package io.delayq.operator.status;

import io.delayq.layout.Layout;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resharding.MigrationJob;
import io.delayq.operator.resharding.ReshardPlan;
import io.delayq.operator.resource.ReshardingStatus;
import io.fabric8.kubernetes.api.model.Condition;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The status parts of a shard-count migration: {@code status.resharding} and the {@code Resharding}
 * condition, from the plan, the layout Redis records and the operator's mover job. Pure.
 */
public final class Resharding {
    public static final String CONDITION = "Resharding";
    public static final String MOVING = "Moving";
    public static final String STARTING = "Starting";
    public static final String SECOND_CHANGE_REFUSED = "SecondChangeRefused";
    public static final String SHRINK_REFUSED = "ShrinkRefused";
    public static final String FINISHED = "Finished";
    public static final String STEADY = "Steady";

    private Resharding() {
    }

    /** The migration as status shows it: the running one, else the last one (finished), else none. */
    public static ReshardingStatus status(ReshardPlan plan, Layout observed, ReshardingStatus previous) {
        if (plan != null && plan.resharding()) {
            boolean moving = plan.phase() == ReshardPlan.Phase.MOVING && observed != null && observed.migrating();
            return new ReshardingStatus(plan.from(), plan.to(), moving ? observed.moved() : 0, moving ? observed.left() : -1, false);
        }
        if (previous != null && !previous.isFinished() && observed != null && observed.shards() >= previous.getTo()) {
            // the migration ended since the last look: the mover recorded its total in the meta hash
            return new ReshardingStatus(previous.getFrom(), previous.getTo(), Math.max(observed.moved(), previous.getMoved()), 0, true);
        }
        return previous;
    }

    public static Condition condition(ReshardPlan plan, ReshardingStatus status, Optional<MigrationJob.State> job,
                                      List<Problem> problems, List<Condition> before, long generation, Instant now) {
        Optional<Problem> shrink = problems.stream().filter(p -> p.reason() == Reason.SHARD_COUNT_MISMATCH).findFirst();
        if (plan != null && plan.resharding()) {
            String message = (plan.phase() == ReshardPlan.Phase.STARTING ? "starting to grow" : "growing")
                    + " from " + plan.from() + " to " + plan.to() + " shards: " + status.getProgress()
                    + "; the new layout's worker Deployments run beside the old ones, which are retired when it has finished";
            String error = job.filter(MigrationJob.State::failed).map(MigrationJob.State::error).orElse(null);
            if (error != null) {
                message += "; the mover failed (" + error + ") and resumes shortly";
            }
            if (plan.refusal() != null) {
                return Conditions.next(before, CONDITION, true, SECOND_CHANGE_REFUSED, plan.refusal() + "; " + message, generation, now);
            }
            return Conditions.next(before, CONDITION, true, plan.phase() == ReshardPlan.Phase.STARTING ? STARTING : MOVING, message, generation, now);
        }
        if (shrink.isPresent()) {
            return Conditions.next(before, CONDITION, false, SHRINK_REFUSED, shrink.get().message(), generation, now);
        }
        if (status != null && status.isFinished()) {
            return Conditions.next(before, CONDITION, false, FINISHED, "grew from " + status.getFrom() + " to " + status.getTo()
                    + " shards, " + status.getMoved() + " tasks moved; the old layout's worker Deployments are retired", generation, now);
        }
        return Conditions.next(before, CONDITION, false, STEADY, "", generation, now);
    }
}
