package io.delayq.worker.delivery;

import io.delayq.handler.Task;
import io.delayq.handler.TaskHandler;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.LogCapture;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker's start-up line says where its tasks go: the handler class it loaded (and from where), the webhook
 * URL, or the stream key. With handler jars in several places, which class was picked is otherwise a guess.
 */
class StartUpLineTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "startup";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final LogCapture log = new LogCapture();

    /** Loaded by its name, as DELAYQ_HANDLER loads a handler from a jar. */
    public static final class OrderTimeoutHandler implements TaskHandler {
        @Override
        public void handle(Task task) {
        }
    }

    private String startUpLine() {
        assertThat(log.lines("delayq worker started: ")).hasSize(1);
        return log.lines("delayq worker started: ").get(0);
    }

    private Map<String, String> env(String... pairs) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 1);
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @Test
    void aHandlerWorkerNamesTheClassItLoadedAndWhereFrom() {
        workers.startConfigured(env("DELAYQ_DELIVERY", "handler", "DELAYQ_HANDLER", OrderTimeoutHandler.class.getName()));

        String from = OrderTimeoutHandler.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertThat(startUpLine()).contains("delayq worker started: delivering to handler " + OrderTimeoutHandler.class.getName()
                + " (from " + from + "); queue=" + Q + " ");
    }

    @Test
    void aWebhookWorkerNamesItsUrl() {
        workers.startConfigured(env("DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "http://127.0.0.1:9/hooks/due",
                "DELAYQ_WEBHOOK_SECRET", "s3cret-hmac"));

        // the path follows the JVM's common pool (WebhookDelivery.runsAsync)
        String path = java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() > 1 ? "asynchronous"
                : "a thread per request in flight (the common pool has one thread)";
        assertThat(startUpLine()).contains("delivering to webhook POST http://127.0.0.1:9/hooks/due (signed), time-out 10s, " + path + "; queue=")
                .doesNotContain("s3cret-hmac");
    }

    @Test
    void aStreamWorkerNamesItsStream() {
        workers.startConfigured(env("DELAYQ_DELIVERY", "stream", "DELAYQ_STREAM_KEY", "orders-ready", "DELAYQ_STREAM_MAXLEN", "10000"));

        assertThat(startUpLine()).contains("delivering to Redis stream orders-ready (trimmed to ~10000 entries); queue=");
    }
}
