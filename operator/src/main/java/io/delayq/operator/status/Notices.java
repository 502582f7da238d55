package io.delayq.operator.status;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.resource.DelayQueueStatus;
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

        notices.addAll(resharding(was, after.getConditions()));

        Map<String, WorkerDeploymentStatus> old = before == null || before.getWorkerDeployments() == null ? Map.of()
                : before.getWorkerDeployments().stream().collect(Collectors.toMap(WorkerDeploymentStatus::getName, w -> w, (a, b) -> a));
        for (WorkerDeploymentStatus w : after.getWorkerDeployments()) {
            WorkerDeploymentStatus o = old.get(w.getName());
            if (o != null && o.getReplicas() != w.getReplicas() && !pausedAfter && !pausedBefore) {
                String due = w.getBacklog() == null ? "unknown" : String.valueOf(w.getBacklog().getDue());
                notices.add(Notice.normal("ScaledWorkers", "scaled " + w.getName() + " from " + o.getReplicas() + " to "
                        + w.getReplicas() + " replicas (due backlog " + due + ")"));
            }
        }
        return notices;
    }

    /** Started and finished (the condition flips) and refused (a refusal appears or says something new). */
    static List<Notice> resharding(List<Condition> was, List<Condition> now) {
        List<Notice> notices = new ArrayList<>();
        Optional<Condition> before = Conditions.find(was, Resharding.CONDITION);
        Optional<Condition> after = Conditions.find(now, Resharding.CONDITION);
        if (after.isEmpty()) {
            return notices;
        }
        Condition c = after.get();
        boolean wasOn = before.map(b -> "True".equals(b.getStatus())).orElse(false);
        boolean isOn = "True".equals(c.getStatus());
        if (isOn && !wasOn) {
            notices.add(Notice.normal("ReshardStarted", c.getMessage()));
        } else if (wasOn && !isOn && Resharding.FINISHED.equals(c.getReason())) {
            notices.add(Notice.normal("ReshardFinished", c.getMessage()));
        }
        boolean refused = Resharding.SECOND_CHANGE_REFUSED.equals(c.getReason()) || Resharding.SHRINK_REFUSED.equals(c.getReason());
        boolean refusedBefore = before.map(b -> Objects.equals(b.getReason(), c.getReason())).orElse(false);
        if (refused && !refusedBefore) {
            notices.add(Notice.warning("ReshardRefused", c.getMessage()));
        }
        return notices;
    }
}
