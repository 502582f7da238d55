package io.delayq.operator.status;

import io.delayq.operator.cluster.ServedApis;
import io.fabric8.kubernetes.api.model.Condition;

import java.time.Instant;
import java.util.List;

/**
 * The condition a DelayQueue carries where the API server serves no {@code policy/v1} PodDisruptionBudget
 * (Kubernetes before 1.21): the queue works, but a node drain may evict all of a range's workers at once.
 * Only shown where budgets cannot be managed, so that a current cluster's status stays as it was.
 */
public final class DisruptionBudgetCondition {
    public static final String TYPE = "DisruptionBudget";
    public static final String REASON = "PolicyV1NotServed";
    static final String MESSAGE = "the API server does not serve " + ServedApis.DISRUPTION_BUDGET_API
            + " PodDisruptionBudget (Kubernetes 1.21 or later): the worker Deployments have no disruption budget";

    private DisruptionBudgetCondition() {
    }

    public static Condition notServed(List<Condition> before, long generation, Instant now) {
        return Conditions.next(before, TYPE, false, REASON, MESSAGE, generation, now);
    }

    /** Whether the status turned to "no disruption budget" (an Event marks it once). */
    static boolean appeared(List<Condition> before, List<Condition> after) {
        boolean was = Conditions.find(before, TYPE).map(c -> "False".equals(c.getStatus())).orElse(false);
        boolean is = Conditions.find(after, TYPE).map(c -> "False".equals(c.getStatus())).orElse(false);
        return is && !was;
    }
}
