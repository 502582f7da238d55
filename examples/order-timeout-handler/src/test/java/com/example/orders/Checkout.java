package com.example.orders;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;

import java.time.Duration;

/**
 * The producer side of the guide (quoted in the README): at checkout the shop schedules the order's timeout.
 * Needs only {@code io.delayq:delayq-core}.
 */
final class Checkout implements AutoCloseable {
    private final DelayQueueClient timeouts;
    private final Duration paymentWindow;

    Checkout(String redisUrl, Duration paymentWindow) {
        this.timeouts = DelayQueueClient.builder().redis(redisUrl).queue("order-timeouts").shards(8).build();
        this.paymentWindow = paymentWindow;
    }

    void placeOrder(String orderId) {
        timeouts.enqueue(TaskSpec.of(orderId).after(paymentWindow));
    }

    @Override
    public void close() {
        timeouts.close();
    }
}
