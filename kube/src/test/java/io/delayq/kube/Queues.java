package io.delayq.kube;

import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.testing.DelayQueues;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/** A plain DelayQueue for the suite: fixed replicas (no autoscaling), everything else the server's defaults. */
final class Queues {
    private Queues() {
    }

    static DelayQueue of(String namespace, String name, int shards, int shardsPerWorker, String redisUrl) {
        DelayQueue dq = DelayQueues.of(name, shards, shardsPerWorker, redisUrl);
        // created through the API: the server sets uid and generation
        dq.getMetadata().setNamespace(namespace);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        dq.getSpec().getAutoscaling().setMode(AutoscalingMode.Disabled);
        return dq;
    }

    /**
     * A spec change as {@code kubectl patch --type merge} makes it: no resourceVersion, so it never conflicts with
     * the operator's status writes (Fabric8's {@code edit} sends one and gets 409 when a status write came between).
     */
    static void patchSpec(KubernetesClient client, String namespace, String name, String specJson) {
        client.resources(DelayQueue.class).inNamespace(namespace).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":" + specJson + "}");
    }
}
