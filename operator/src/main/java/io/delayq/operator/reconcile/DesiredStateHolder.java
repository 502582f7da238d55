package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.DesiredWorkers;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * Hands the desired state, computed once per reconciliation by the reconciler, to the dependent
 * resources, so that they apply exactly what the status reports (autoscaling looks at the clock).
 */
final class DesiredStateHolder {
    private static final String KEY = DesiredWorkers.class.getName();

    private DesiredStateHolder() {
    }

    static void put(Context<DelayQueue> context, DesiredWorkers desired) {
        context.managedWorkflowAndDependentResourceContext().put(KEY, desired);
    }

    static DesiredWorkers get(Context<DelayQueue> context) {
        return context.managedWorkflowAndDependentResourceContext().getMandatory(KEY, DesiredWorkers.class);
    }
}
