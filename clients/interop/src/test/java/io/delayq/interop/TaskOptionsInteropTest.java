package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.handler.Task;
import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-task options written by the Python and Node producers are honoured by the Java worker: the task's own
 * attempts and backoff, its expiry, and its trace context as the parent of the worker's delivery span.
 */
class TaskOptionsInteropTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int SHARDS = 4;
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_ID = "00f067aa0ba902b7";
    private final List<AutoCloseable> open = new ArrayList<>();

    static List<Producer> producers() {
        return Producer.all();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void theJavaWorkerHonoursTheProducersPerTaskOptions(Producer p) {
        String queue = "options-" + p.name();
        TestQueue q = track(TestQueue.open(redis.url(), queue, SHARDS));
        ProducerProcess producer = track(p.connect(redis.url(), queue, SHARDS)).connected();
        long now = q.serverNow();
        long expires = now + 400;
        JsonNode results = producer.ok(enqueue(
                task("notify-1", "payload", "fail", "maxAttempts", 2, "backoffMs", 10, "backoffMaxMs", 10),
                task("capture-1", "payload", "fail", "maxAttempts", 7, "backoffMs", 10, "backoffMaxMs", 10, "backoffMultiplier", 1),
                task("coupon-1", "dueAt", now + 200, "payload", "ok", "expiresAt", expires),
                task("traced-1", "payload", "ok", "traceparent", "00-" + TRACE_ID + "-" + PARENT_ID + "-01", "tracestate", "k=v")));
        assertThat(results).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> q.serverNow() > expires);

        InMemorySpanExporter spans = InMemorySpanExporter.create();
        OpenTelemetrySdk sdk = track(OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build()).build());
        Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", String.valueOf(SHARDS), "DELAYQ_HTTP_PORT", "0", "DELAYQ_POLL_INTERVAL", "100ms",
                "DELAYQ_RETRY_MAX_ATTEMPTS", "5", "DELAYQ_RETRY_BACKOFF_INITIAL", "50ms", "DELAYQ_RETRY_BACKOFF_MAX", "50ms",
                "DELAYQ_SHUTDOWN_GRACE", "2s"));
        track(Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery((Task t) -> {
            attempts.computeIfAbsent(t.id(), k -> new CopyOnWriteArrayList<>()).add(t.attempt());
            if ("fail".equals(t.payload())) {
                throw new IllegalStateException("declined");
            }
        }), System::currentTimeMillis, sdk));

        for (String id : List.of("notify-1", "capture-1", "coupon-1")) {
            await().atMost(Duration.ofSeconds(15)).until(() -> q.client().inspect(id).state() == TaskInfo.State.DEAD);
        }
        assertThat(attempts.get("notify-1")).containsExactly(1, 2);
        assertThat(attempts.get("capture-1")).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(attempts).doesNotContainKey("coupon-1");
        assertThat(q.client().inspect("coupon-1").lastError()).startsWith("expired: not started by its expiresAt");

        await().atMost(Duration.ofSeconds(15)).until(() -> attempts.containsKey("traced-1") && delivery(spans, "traced-1") != null);
        SpanData d = delivery(spans, "traced-1");
        assertThat(d.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(d.getParentSpanId()).isEqualTo(PARENT_ID);
        assertThat(d.getSpanContext().getTraceState().get("k")).isEqualTo("v");
    }

    private static SpanData delivery(InMemorySpanExporter spans, String id) {
        return spans.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.CONSUMER
                && id.equals(s.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("messaging.message.id"))))
                .findFirst().orElse(null);
    }
}
