package io.delayq.kube;

import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.RedisSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** A plain DelayQueue for the suite: fixed replicas (no autoscaling), everything else the server's defaults. */
final class Queues {
    private Queues() {
    }

    static DelayQueue of(String namespace, String name, int shards, int shardsPerWorker, String redisUrl) {
        DelayQueue dq = new DelayQueue();
        dq.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        DelayQueueSpec spec = new DelayQueueSpec();
        spec.setShards(shards);
        spec.setShardsPerWorker(shardsPerWorker);
        RedisSpec redis = new RedisSpec();
        redis.setUrl(redisUrl);
        spec.setRedis(redis);
        spec.getAutoscaling().setMode(AutoscalingMode.Disabled);
        dq.setSpec(spec);
        return dq;
    }
}
