package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.DesiredWorkers;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;

import java.util.Optional;

/**
 * Hands the desired state, computed once per reconciliation by the reconciler, to the dependent
 * resources, so that they apply exactly what the status reports (autoscaling looks at the clock).
 */
final class DesiredStateHolder {
    private static final String KEY = DesiredWorkers.class.getName();
    private static final String RELAY_KEY = "outbox-relay-deployment";

    private DesiredStateHolder() {
    }

    static void put(Context<DelayQueue> context, DesiredWorkers desired, Optional<Deployment> outboxRelay) {
        context.managedWorkflowAndDependentResourceContext().put(KEY, desired);
        context.managedWorkflowAndDependentResourceContext().put(RELAY_KEY, outboxRelay.orElse(null));
    }

    static DesiredWorkers get(Context<DelayQueue> context) {
        return context.managedWorkflowAndDependentResourceContext().getMandatory(KEY, DesiredWorkers.class);
    }

    /** The outbox relay's own Deployment (mode Deployment), or empty. */
    static Optional<Deployment> outboxRelay(Context<DelayQueue> context) {
        return context.managedWorkflowAndDependentResourceContext().get(RELAY_KEY, Deployment.class);
    }
}
