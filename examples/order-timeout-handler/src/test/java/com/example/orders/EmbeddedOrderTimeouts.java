package com.example.orders;

import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * The guide's step 4, as an application that runs the handler inside its own JVM would write it (this code is
 * quoted in the README; {@link EmbeddedOrderTimeoutsTest} runs it). Needs {@code io.delayq:delayq-worker} on the
 * application's class path.
 */
final class EmbeddedOrderTimeouts implements AutoCloseable {
    private final Worker worker;

    EmbeddedOrderTimeouts(String redisUrl, URI orderService) {
        worker = Worker.startEmbedded(WorkerConfig.embedded(Map.of(
                "DELAYQ_REDIS_URL", redisUrl,
                "DELAYQ_QUEUE", "order-timeouts",
                "DELAYQ_SHARDS", "8")), new OrderTimeoutHandler(orderService));
    }

    @Override
    public void close() {
        worker.shutdown(Duration.ofSeconds(30)); // in-flight cancellations finish, then the handler's stop()
    }
}
