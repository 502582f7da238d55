package io.delayq.worker.tracing;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.worker.delivery.Receiver;
import io.delayq.worker.dispatch.RunningWorkers;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The stand-alone worker's SDK as the standard OTEL_* variables configure it, exporting OTLP/HTTP to a
 * real HTTP server that decodes the requests as a collector does (no OpenTelemetry Collector can be installed
 * from the registries here; the OTLP protobuf classes can).
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
    void theDeliverySpanIsExportedOverOtlpHttpInTheProducersTrace() throws Exception {
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

                await().atMost(Duration.ofSeconds(15)).until(() -> exported(collector).stream()
                        .anyMatch(span -> span.getName().equals("process orders")));
                Receiver.Request export = collector.requests().get(0);
                assertThat(export.header("Content-Type")).isEqualTo("application/x-protobuf");
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(export.body());
                assertThat(request.getResourceSpans(0).getResource().getAttributesList())
                        .anyMatch(a -> a.getKey().equals("service.name") && a.getValue().getStringValue().equals("orders-worker"));
                Span span = exported(collector).stream().filter(s -> s.getName().equals("process orders")).findFirst().orElseThrow();
                assertThat(HexFormat.of().formatHex(span.getTraceId().toByteArray())).isEqualTo(traceId);
                assertThat(HexFormat.of().formatHex(span.getParentSpanId().toByteArray())).isEqualTo("00f067aa0ba902b7");
                assertThat(span.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CONSUMER);
                Map<String, String> attributes = new java.util.HashMap<>();
                span.getAttributesList().forEach(a -> attributes.put(a.getKey(), a.getValue().hasIntValue()
                        ? String.valueOf(a.getValue().getIntValue()) : a.getValue().getStringValue()));
                assertThat(attributes).containsEntry("messaging.message.id", "order-8812").containsEntry("delayq.attempt", "1")
                        .containsEntry("delayq.shard", "0").containsEntry("delayq.outcome", "acked").containsKey("delayq.lag_ms");
            } finally {
                workers.close();
                sdk.shutdown().join(5, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    /** Every span the collector received, decoded as OTLP/HTTP protobuf (ExportTraceServiceRequest). */
    private static List<Span> exported(Receiver collector) {
        List<Span> spans = new ArrayList<>();
        for (Receiver.Request r : collector.requests()) {
            try {
                ExportTraceServiceRequest.parseFrom(r.body()).getResourceSpansList()
                        .forEach(rs -> rs.getScopeSpansList().forEach(ss -> spans.addAll(ss.getSpansList())));
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError("the collector received a body that is not OTLP protobuf", e);
            }
        }
        return spans;
    }
}
