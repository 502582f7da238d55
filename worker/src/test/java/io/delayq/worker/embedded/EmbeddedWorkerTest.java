package io.delayq.worker.embedded;

import io.delayq.handler.HandlerContext;
import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Workers embedded in an application's JVM: no HTTP port unless asked, so two share a process; start/stop reach the handler. */
class EmbeddedWorkerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue orders = TestQueue.eachTest(redis, "orders", 2);
    @RegisterExtension
    final TestQueue coupons = TestQueue.eachTest(redis, "coupons", 1);

    /** What an application passes: the settings it has, no DELAYQ_HTTP_PORT. */
    private static Map<String, String> settings(String queue, int shards) {
        return Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue, "DELAYQ_SHARDS", String.valueOf(shards),
                "DELAYQ_POLL_INTERVAL", "200ms", "DELAYQ_SHUTDOWN_GRACE", "2s");
    }

    static final class Recording implements TaskHandler {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void start(HandlerContext context) {
            events.add("start " + context.queue() + " " + context.shardFrom() + "-" + context.shardTo());
        }

        @Override
        public void handle(Task task) {
            events.add("task " + task.id() + " attempt " + task.attempt());
        }

        @Override
        public void stop() {
            events.add("stop");
        }
    }

    @Test
    void twoEmbeddedWorkersShareAJvmAndBindNoHttpPort() {
        Recording orderHandler = new Recording();
        Recording couponHandler = new Recording();
        try (Worker a = Worker.startEmbedded(WorkerConfig.embedded(settings("orders", 2)), orderHandler);
             Worker b = Worker.startEmbedded(WorkerConfig.embedded(settings("coupons", 1)), couponHandler)) {
            orders.client().enqueue(TaskSpec.of("order-8812"));
            coupons.client().enqueue(TaskSpec.of("coupon-9"));

            await().atMost(Duration.ofSeconds(10)).until(() -> orderHandler.events.contains("task order-8812 attempt 1")
                    && couponHandler.events.contains("task coupon-9 attempt 1"));
            assertThat(orderHandler.events).first().isEqualTo("start orders 0-1");
            assertThatThrownBy(a::httpPort).isInstanceOf(IllegalStateException.class).hasMessageContaining("DELAYQ_HTTP_PORT");
            assertThat(b.config().describe()).contains("http=off");
        }
        assertThat(orderHandler.events).last().isEqualTo("stop");
    }

    @Test
    void anEmbeddedWorkerServesMetricsWhenAskedForAPort() {
        Map<String, String> withPort = new java.util.HashMap<>(settings("orders", 2));
        withPort.put("DELAYQ_HTTP_PORT", "0");
        try (Worker w = Worker.startEmbedded(WorkerConfig.embedded(withPort), task -> { })) {
            assertThat(w.httpPort()).isPositive();
        }
    }

    @Test
    void theProcessKeepsItsDefaultPort() {
        assertThat(WorkerConfig.fromEnv(settings("orders", 2)).httpPort()).isEqualTo(8080);
        assertThat(WorkerConfig.embedded(settings("orders", 2)).httpPort()).isEqualTo(WorkerConfig.NO_HTTP);
    }
}
