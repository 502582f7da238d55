package io.delayq.operator.workers;

import io.delayq.operator.resource.DelayQueue;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;

/**
 * Node drains evict at most one worker pod of a DelayQueue at a time, so a drain never leaves
 * several shard ranges without a worker at once. Leases make an eviction safe, not free: the
 * evicted pod's in-flight tasks wait for their lease to expire.
 */
public final class WorkerDisruptionBudget {

    private WorkerDisruptionBudget() {
    }

    public static PodDisruptionBudget desired(DelayQueue dq) {
        String name = dq.getMetadata().getName();
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                    .withName(WorkerNames.disruptionBudget(name))
                    .withNamespace(dq.getMetadata().getNamespace())
                    .withLabels(WorkerLabels.common(name, dq.queueName()))
                    .withOwnerReferences(WorkerDeployment.ownerReference(dq))
                .endMetadata()
                .withNewSpec()
                    .withMaxUnavailable(new IntOrString(1))
                    .withNewSelector().withMatchLabels(WorkerLabels.allWorkers(name)).endSelector()
                .endSpec()
                .build();
    }
}
