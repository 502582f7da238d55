package io.delayq.images.worker;

import io.delayq.images.podman.PodmanPod;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerDeployment;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.Map;
import java.util.TreeMap;

/**
 * Worker pods exactly as the operator renders them ({@link WorkerDeployment#desired}) for a
 * DelayQueue written as a user would, with its Redis where a container reaches the test's.
 */
public final class WorkerPods {
    public static final String NAMESPACE = "shop";

    private WorkerPods() {
    }

    /** @param specYaml the DelayQueue's spec below {@code spec:}, indented by two spaces; {@code %REDIS%} is replaced */
    public static DelayQueue delayQueue(String name, String specYaml, int redisPort) {
        DelayQueue dq = Serialization.unmarshal("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: %s
                  namespace: %s
                  uid: 2f1c7a4e-0000-4000-8000-000000000001
                  generation: 1
                spec:
                %s""".formatted(name, NAMESPACE, specYaml.replace("%REDIS%", "redis://" + PodmanPod.HOST + ":" + redisPort)),
                DelayQueue.class);
        return dq;
    }

    public static Deployment deployment(DelayQueue dq, String image) {
        return WorkerDeployment.desired(dq, ShardRange.all(dq.getSpec().getShards()), 1, new TreeMap<>(), image);
    }

    public static PodmanPod pod(Deployment deployment) {
        PodSpec spec = deployment.getSpec().getTemplate().getSpec();
        return PodmanPod.of(spec, WorkerDeployment.CONTAINER, (name, source) -> null, Map.of());
    }
}
