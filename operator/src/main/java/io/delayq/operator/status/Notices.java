package io.delayq.operator.status;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.ReshardingStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.fabric8.kubernetes.api.model.Condition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Which Events a status change deserves. Events mark changes (a problem appears, goes away or
 * changes; suspend; a scaling step), not states, so a problem that lasts an hour is one Event,
 * not one per backlog check, and an operator restart repeats none.
 */
public final class Notices {

    private Notices() {
    }

    public static List<Notice> between(DelayQueueStatus before, DelayQueueStatus after, List<Problem> problems, List<Problem> warnings) {
        List<Notice> notices = new ArrayList<>();
        List<Condition> was = before == null ? List.of() : before.getConditions();
        Optional<Condition> degradedBefore = Conditions.find(was, Conditions.DEGRADED).filter(c -> "True".equals(c.getStatus()));
        if (!problems.isEmpty()) {
            String message = problems.stream().map(Problem::message).collect(Collectors.joining("; "));
            boolean changed = degradedBefore.map(c -> !Objects.equals(c.getReason(), problems.get(0).reasonText())
                    || !Objects.equals(c.getMessage(), message)).orElse(true);
            if (changed) {
                problems.forEach(p -> notices.add(Notice.warning(p.reasonText(), p.message())));
            }
        } else if (degradedBefore.isPresent()) {
            notices.add(Notice.normal("Recovered", "no longer degraded (was " + degradedBefore.get().getReason() + ")"));
        }

        List<String> warnedBefore = before == null || before.getRedis() == null || before.getRedis().getWarnings() == null
                ? List.of() : before.getRedis().getWarnings();
        warnings.stream().filter(w -> !warnedBefore.contains(w.message())).forEach(w -> notices.add(Notice.warning(w.reasonText(), w.message())));

        boolean pausedBefore = Conditions.isTrue(was, Conditions.PAUSED);
        boolean pausedAfter = Conditions.isTrue(after.getConditions(), Conditions.PAUSED);
        if (pausedAfter && !pausedBefore) {
            notices.add(Notice.normal("Suspended", "scaled every worker Deployment to zero; tasks wait in Redis"));
        } else if (pausedBefore && !pausedAfter) {
            notices.add(Notice.normal("Resumed", "worker Deployments scaled up again"));
        }

        notices.addAll(resharding(before, after));

        if (DisruptionBudgetCondition.appeared(was, after.getConditions())) {
            notices.add(Notice.warning(DisruptionBudgetCondition.REASON, DisruptionBudgetCondition.MESSAGE));
        }

        Map<String, WorkerDeploymentStatus> old = before == null || before.getWorkerDeployments() == null ? Map.of()
                : before.getWorkerDeployments().stream().collect(Collectors.toMap(WorkerDeploymentStatus::getName, w -> w, (a, b) -> a));
        for (WorkerDeploymentStatus w : after.getWorkerDeployments()) {
            WorkerDeploymentStatus o = old.get(w.getName());
            if (o != null && o.getReplicas() != w.getReplicas() && !pausedAfter && !pausedBefore) {
                String due = w.getBacklog() == null ? "unknown" : String.valueOf(w.getBacklog().getDue());
                // Forecast mode says which window or figure drove the step; the others show the backlog
                String why = w.getScaleReason() != null ? ": " + w.getScaleReason() : " (due backlog " + due + ")";
                notices.add(Notice.normal("ScaledWorkers", "scaled " + w.getName() + " from " + o.getReplicas() + " to "
                        + w.getReplicas() + " replicas" + why));
            }
        }
        return notices;
    }

    /**
     * Started and finished (status.resharding begins another migration or marks one finished; a migration that
     * ends as the next begins is both) and refused (the Resharding condition's reason turns to a refusal).
     */
    static List<Notice> resharding(DelayQueueStatus before, DelayQueueStatus after) {
        List<Notice> notices = new ArrayList<>();
        ReshardingStatus was = before == null ? null : before.getResharding();
        ReshardingStatus now = after.getResharding();
        boolean sameMigration = was != null && now != null && was.getFrom() == now.getFrom() && was.getTo() == now.getTo();
        if (was != null && !was.isFinished() && (sameMigration ? now.isFinished() : now != null && now.getFrom() == was.getTo())) {
            notices.add(Notice.normal("ReshardFinished", "grew from " + was.getFrom() + " to " + was.getTo() + " shards"
                    + (sameMigration ? ", " + now.getMoved() + " tasks moved" : "")));
        }
        if (now != null && !now.isFinished() && !sameMigration) {
            notices.add(Notice.normal("ReshardStarted", "growing from " + now.getFrom() + " to " + now.getTo()
                    + " shards: the new layout's worker Deployments start beside the old ones"));
        }
        Optional<Condition> c = Conditions.find(after.getConditions(), Resharding.CONDITION);
        Optional<Condition> b = Conditions.find(before == null ? List.of() : before.getConditions(), Resharding.CONDITION);
        boolean refused = c.map(x -> Resharding.SECOND_CHANGE_REFUSED.equals(x.getReason()) || Resharding.SHRINK_REFUSED.equals(x.getReason()))
                .orElse(false);
        if (refused && !b.map(x -> Objects.equals(x.getReason(), c.get().getReason())).orElse(false)) {
            notices.add(Notice.warning("ReshardRefused", c.get().getMessage()));
        }
        return notices;
    }
}
