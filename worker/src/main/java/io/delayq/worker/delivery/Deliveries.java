package io.delayq.worker.delivery;

import io.delayq.handler.HandlerContext;
import io.delayq.redis.RedisEndpoint;
import io.delayq.worker.config.WorkerConfig;

import java.time.Duration;
import java.util.function.Function;

/** The delivery target a configuration asks for. */
public final class Deliveries {
    private Deliveries() {
    }

    public static Function<RedisEndpoint, Delivery> forConfig(WorkerConfig c) {
        return switch (c.delivery()) {
            case HANDLER -> redis -> HandlerDelivery.discover(c.handlerClass(),
                    new HandlerContext(c.queue(), c.shards(), c.range().from(), c.range().to()));
            case WEBHOOK -> redis -> new WebhookDelivery(c.webhookUrl(), c.webhookTimeout(), c.webhookSecret());
            case STREAM -> redis -> new StreamDelivery(redis.commands(), c.streamKey(), c.streamMaxLen(), Duration.ofSeconds(5));
        };
    }
}
