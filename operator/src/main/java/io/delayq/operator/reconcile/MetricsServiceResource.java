package io.delayq.operator.reconcile;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.operator.workers.WorkerMetricsService;
import io.fabric8.kubernetes.api.model.Service;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/** The headless Service over the worker pods' /metrics. */
public class MetricsServiceResource extends CRUDKubernetesDependentResource<Service, DelayQueue> {

    public MetricsServiceResource() {
        super(Service.class);
    }

    @Override
    protected Service desired(DelayQueue primary, Context<DelayQueue> context) {
        return WorkerMetricsService.desired(primary);
    }

    @Override
    protected InformerEventSourceConfiguration.Builder<Service> informerConfigurationBuilder(EventSourceContext<DelayQueue> context) {
        return super.informerConfigurationBuilder(context).withLabelSelector(WorkerLabels.MANAGED_SELECTOR);
    }
}
