package io.delayq.operator.testing;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.RedisSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** DelayQueue resources for tests, with the same defaults the API server would fill in. */
public final class DelayQueues {

    private DelayQueues() {
    }

    public static DelayQueue of(String name, int shards, Integer shardsPerWorker, String redisUrl) {
        DelayQueue dq = new DelayQueue();
        dq.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("shop").withUid("uid-" + name)
                .withGeneration(1L).build());
        DelayQueueSpec spec = new DelayQueueSpec();
        spec.setShards(shards);
        spec.setShardsPerWorker(shardsPerWorker);
        RedisSpec redis = new RedisSpec();
        redis.setUrl(redisUrl);
        spec.setRedis(redis);
        dq.setSpec(spec);
        return dq;
    }

    public static DelayQueue orders() {
        return of("orders", 8, 4, "redis://redis.shop.svc:6379/0");
    }
}
