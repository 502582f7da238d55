package io.delayq.worker.tracing;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.WorkerCommand;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.worker.delivery.Receiver;
import io.delayq.worker.dispatch.RunningWorkers;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The stand-alone worker's SDK as the standard OTEL_* variables configure it, exporting OTLP/HTTP to a
 * real HTTP server standing in for a collector (no collector can be installed from the registries here).
 */
class OtlpExportTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private final TestQueue queue = TestQueue.eachTest(redis, "orders", 1);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final CapturedStderr stderr = new CapturedStderr();

    @Test
    void tracingIsOffUnlessAnExporterIsNamed() {
        assertThat(WorkerTelemetry.fromEnvironment(Map.of())).isNull();
        assertThat(WorkerTelemetry.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "none"))).isNull();
    }

    @Test
    void aGrpcProtocolIsRefusedNamingTheVariable() {
        assertThatThrownBy(() -> WorkerTelemetry.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf (this worker ships no gRPC sender), got 'grpc'"));
    }

    @Test
    void theWorkerCommandExitsTwoWithOneLineWhenTheOtlpProtocolIsGrpc() {
        Map<String, String> env = new java.util.HashMap<>(RunningWorkers.env(redis.url(), "orders", 1));
        env.put("OTEL_TRACES_EXPORTER", "otlp");
        env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
        assertThat(WorkerCommand.run(env)).isEqualTo(2);
        assertThat(stderr.lines()).containsExactly("delayq worker: invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL: "
                + "must be http/protobuf (this worker ships no gRPC sender), got 'grpc'");
    }

    @Test
    void theDeliverySpanIsExportedOverOtlpHttpInTheProducersTrace() {
        try (Receiver collector = Receiver.start(queue::serverNow, (req, ex) -> Receiver.reply(ex, 200, ""))) {
            OpenTelemetrySdk sdk = WorkerTelemetry.fromEnvironment(Map.of(
                    "OTEL_TRACES_EXPORTER", "otlp",
                    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.url().resolve("/v1/traces").toString(),
                    "OTEL_BSP_SCHEDULE_DELAY", "50",
                    "OTEL_SERVICE_NAME", "orders-worker"));
            try {
                workers.start(RunningWorkers.env(redis.url(), "orders", 1), r -> new HandlerDelivery(task -> { }), sdk);
                String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
                queue.client().enqueue(TaskSpec.of("order-8812").payload("x").traceContext("00-" + traceId + "-00f067aa0ba902b7-01", null));

                byte[] id = HexFormat.of().parseHex(traceId);
                await().atMost(Duration.ofSeconds(15)).until(() -> collector.requests().stream().anyMatch(r -> contains(r.body(), id)));
                Receiver.Request export = collector.requests().stream().filter(r -> contains(r.body(), id)).findFirst().orElseThrow();
                assertThat(export.header("Content-Type")).isEqualTo("application/x-protobuf");
                String text = new String(export.body(), java.nio.charset.StandardCharsets.ISO_8859_1);
                assertThat(text).contains("process orders").contains("orders-worker").contains("order-8812");
                assertThat(contains(export.body(), HexFormat.of().parseHex("00f067aa0ba902b7"))).as("parent span id").isTrue();
            } finally {
                workers.close();
                sdk.shutdown().join(5, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
