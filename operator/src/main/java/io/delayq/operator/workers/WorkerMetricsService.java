package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * A headless Service over every worker pod of a DelayQueue: Prometheus (or a ServiceMonitor) finds
 * each pod's /metrics through its endpoints. Nothing is load-balanced through it.
 */
public final class WorkerMetricsService {
    public static final String PORT_NAME = "http-metrics";

    private WorkerMetricsService() {
    }

    public static Service desired(DelayQueue dq) {
        String name = dq.getMetadata().getName();
        return new ServiceBuilder()
                .withNewMetadata()
                    .withName(WorkerNames.metricsService(name))
                    .withNamespace(dq.getMetadata().getNamespace())
                    .withLabels(WorkerLabels.common(name, dq.queueName()))
                    .withOwnerReferences(WorkerDeployment.ownerReference(dq))
                .endMetadata()
                .withNewSpec()
                    .withClusterIP("None")
                    .withSelector(WorkerLabels.allWorkers(name))
                    .addNewPort().withName(PORT_NAME).withPort(WorkerEnvironment.HTTP_PORT)
                        .withTargetPort(new IntOrString("http")).withProtocol("TCP").endPort()
                .endSpec()
                .build();
    }
}
