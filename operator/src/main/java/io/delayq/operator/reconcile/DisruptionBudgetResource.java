package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerDisruptionBudget;
import io.delayq.operator.workers.WorkerLabels;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/** The PodDisruptionBudget over the worker pods. */
public class DisruptionBudgetResource extends CRUDKubernetesDependentResource<PodDisruptionBudget, DelayQueue> {

    public DisruptionBudgetResource() {
        super(PodDisruptionBudget.class);
    }

    @Override
    protected PodDisruptionBudget desired(DelayQueue primary, Context<DelayQueue> context) {
        return WorkerDisruptionBudget.desired(primary);
    }

    @Override
    protected InformerEventSourceConfiguration.Builder<PodDisruptionBudget> informerConfigurationBuilder(
            EventSourceContext<DelayQueue> context) {
        return super.informerConfigurationBuilder(context).withLabelSelector(WorkerLabels.MANAGED_SELECTOR);
    }
}
