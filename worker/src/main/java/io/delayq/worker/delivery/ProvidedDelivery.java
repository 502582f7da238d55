package io.delayq.worker.delivery;

import io.delayq.redis.RedisEndpoint;

/** A {@link DeliveryProvider}'s checked settings: opens the delivery when the worker starts. */
public interface ProvidedDelivery {
    /** The provider's name ({@code kafka}), for the start-up line. */
    String name();

    /** Called once the worker is connected to Redis; the worker closes the delivery when it stops. */
    Delivery open(RedisEndpoint redis);
}
