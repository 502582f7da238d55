package io.delayq.worker.delivery;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.TaskHandler;
import io.delayq.redis.RedisEndpoint;
import io.delayq.worker.config.DeliveryKind;
import io.delayq.worker.config.WorkerConfig;

import java.time.Duration;
import java.util.function.Function;

/** The delivery target a configuration asks for. */
public final class Deliveries {
    private Deliveries() {
    }

    /**
     * A handler is loaded here, before the worker connects to Redis, so that a worker without its handler
     * fails at once ({@link HandlerNotLoadable}) rather than after the Redis round trips of its start.
     */
    public static Function<RedisEndpoint, Delivery> forConfig(WorkerConfig c) {
        if (c.delivery() == DeliveryKind.HANDLER) {
            TaskHandler handler = HandlerDelivery.load(c.handlerClass(), c.handlerPath());
            return redis -> HandlerDelivery.started(handler, context(c));
        }
        return switch (c.delivery()) {
            case WEBHOOK -> redis -> new WebhookDelivery(c.webhookUrl(), c.webhookTimeout(), c.webhookSecret(), c.results().on());
            case STREAM -> redis -> new StreamDelivery(redis.commands(), c.streamKey(), c.streamMaxLen(), Duration.ofSeconds(5));
            case PROVIDED -> c.provided()::open;
            case HANDLER -> throw new IllegalStateException("handled above");
        };
    }

    /** What a handler is told about the worker that runs it. */
    public static HandlerContext context(WorkerConfig c) {
        return new HandlerContext(c.queue(), c.shards(), c.range().from(), c.range().to());
    }
}
