package com.example.orders;

import com.example.orders.FakeOrderService.State;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The guide's step 5: the packaged handler jar ({@code target/order-timeout-handler.jar}) in a folder that the
 * stock worker reads through {@code DELAYQ_HANDLER_PATH} — what the worker image does with {@code /app/handlers}.
 */
class PackagedHandlerIT {
    private static final Path HANDLER_JAR = Path.of(System.getProperty("handler.jar", "target/order-timeout-handler.jar"));

    @TempDir
    Path tmp;

    @Test
    void theStockWorkerFiresTheTaskThroughTheHandlerJarInItsHandlerFolder() throws Exception {
        Path handlers = Files.createDirectories(tmp.resolve("handlers"));
        Files.copy(HANDLER_JAR, handlers.resolve("order-timeout-handler.jar"));
        try (LocalRedisServer redis = LocalRedisServer.start();
             FakeOrderService orders = new FakeOrderService().order("8812", State.UNPAID);
             WorkerProcess worker = WorkerProcess.start(Map.of(
                     "DELAYQ_REDIS_URL", redis.url(),
                     "DELAYQ_QUEUE", "order-timeouts",
                     "DELAYQ_SHARDS", "8",
                     "DELAYQ_HTTP_PORT", "0",
                     "DELAYQ_HANDLER_PATH", handlers.toString(),
                     "ORDER_SERVICE_URL", orders.url().toString()), tmp.resolve("worker.log"));
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("order-timeouts").shards(8).build()) {
            client.enqueue(TaskSpec.of("8812").after(Duration.ofMillis(300)));

            await().atMost(Duration.ofSeconds(30)).until(() -> orders.state("8812") == State.CANCELLED || !worker.isAlive());
            assertThat(orders.state("8812")).as(worker.output()).isEqualTo(State.CANCELLED);
            assertThat(worker.output()).contains("order-timeout handler for queue order-timeouts calls " + orders.url());
            assertThat(worker.stop()).isZero();
        }
    }

    @Test
    void aWorkerPointedAtAFolderWithoutTheHandlerExitsTwoSayingWhereItLooked() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("handlers"));
        try (LocalRedisServer redis = LocalRedisServer.start();
             WorkerProcess worker = WorkerProcess.start(Map.of(
                     "DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "order-timeouts", "DELAYQ_SHARDS", "8",
                     "DELAYQ_HTTP_PORT", "0", "DELAYQ_HANDLER_PATH", empty.toString(),
                     "DELAYQ_HANDLER", "com.example.orders.OrderTimeoutHandler"), tmp.resolve("worker.log"))) {
            assertThat(worker.waitForExit()).isEqualTo(2);
            assertThat(worker.output().lines().filter(l -> l.startsWith("delayq worker:")).toList()).singleElement().asString()
                    .contains("com.example.orders.OrderTimeoutHandler (no such class)")
                    .contains("DELAYQ_HANDLER_PATH " + empty + "/ (no jar)");
        }
    }
}
