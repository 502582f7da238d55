package io.delayq.worker.tracing;

import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.worker.delivery.Receiver;
import io.delayq.worker.dispatch.RunningWorkers;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Producer → Redis → worker → handler / webhook / stream under one trace, with a real in-process SDK and
 * its in-memory exporter, a real Redis and a real HTTP server.
 */
class DeliveryTracingTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "orders";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private final Tracer app = sdk.getTracer("checkout-service");
    private Receiver receiver;

    @AfterEach
    void closeSdk() {
        if (receiver != null) {
            receiver.close();
        }
        sdk.close();
    }

    /** Enqueues {@code spec} inside a producer span, as an application with the SDK or agent does; answers that span. */
    private SpanData enqueueInSpan(TaskSpec spec) {
        Span producer = app.spanBuilder("POST /checkout").startSpan();
        try (Scope ignored = producer.makeCurrent()) {
            queue.client().enqueue(spec);
        } finally {
            producer.end();
        }
        return spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals("POST /checkout")).reduce((a, b) -> b).orElseThrow();
    }

    /** The W3C form of a span's context (its flags as the SDK set them: sampled, and random trace id). */
    private static String traceparent(SpanData span) {
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getSpanContext().getTraceFlags().asHex();
    }

    private List<SpanData> consumerSpans(String taskId) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == SpanKind.CONSUMER && taskId.equals(s.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("messaging.message.id"))))
                .toList();
    }

    @Test
    void theDeliverySpanIsAChildOfTheProducersSpanAndTheHandlersSpansNestUnderIt() {
        SpanData producer = enqueueInSpan(TaskSpec.of("order-8812").payload("cancel-if-unpaid"));
        assertThat(queue.storedRecord("order-8812")).contains("\"traceparent\":\"" + traceparent(producer) + "\"");
        Tracer handlerTracer = sdk.getTracer("order-handler");
        AtomicInteger calls = new AtomicInteger();
        workers.start(RunningWorkers.env(redis.url(), Q, 4), r -> new HandlerDelivery(task -> {
            Span inner = handlerTracer.spanBuilder("cancel order").startSpan(); // parent: the current span, the worker's
            inner.end();
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("payment service busy");
            }
        }), sdk);

        await().atMost(WAIT).until(() -> consumerSpans("order-8812").size() == 2);
        List<SpanData> deliveries = consumerSpans("order-8812");
        for (SpanData d : deliveries) {
            assertThat(d.getName()).isEqualTo("process orders");
            assertThat(d.getTraceId()).isEqualTo(producer.getTraceId());
            assertThat(d.getParentSpanId()).isEqualTo(producer.getSpanId());
            assertThat(d.getParentSpanContext().isRemote()).isTrue();
            assertThat(d.getAttributes().get(DeliveryTracing.SHARD)).isEqualTo((long) queue.shardOf("order-8812"));
            assertThat(d.getAttributes().get(DeliveryTracing.DESTINATION)).isEqualTo(Q);
            assertThat(d.getAttributes().get(DeliveryTracing.SYSTEM)).isEqualTo("delayq");
            assertThat(d.getAttributes().get(DeliveryTracing.LAG_MS)).isNotNull().isGreaterThanOrEqualTo(0L);
        }
        assertThat(deliveries).extracting(d -> d.getAttributes().get(DeliveryTracing.ATTEMPT)).containsExactly(1L, 2L);
        assertThat(deliveries).extracting(d -> d.getAttributes().get(DeliveryTracing.OUTCOME)).containsExactly("retried", "acked");
        assertThat(deliveries.get(0).getStatus().getDescription()).isEqualTo("IllegalStateException: payment service busy");

        List<SpanData> inner = spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals("cancel order")).toList();
        assertThat(inner).hasSize(2);
        for (int i = 0; i < 2; i++) {
            assertThat(inner.get(i).getTraceId()).isEqualTo(producer.getTraceId());
            assertThat(inner.get(i).getParentSpanId()).isEqualTo(deliveries.get(i).getSpanId());
        }
    }

    @Test
    void theWebhookRequestCarriesTheDeliverySpansTraceparent() {
        receiver = Receiver.start(queue::serverNow, (req, ex) -> Receiver.reply(ex, 200, "ok"));
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", receiver.url().toString());
        workers.start(env, Deliveries.forConfig(WorkerConfig.fromEnv(env)), sdk);
        SpanData producer = enqueueInSpan(TaskSpec.of("payout-W-17").payload("{}"));

        await().atMost(WAIT).until(() -> consumerSpans("payout-W-17").size() == 1);
        SpanData delivery = consumerSpans("payout-W-17").get(0);
        assertThat(delivery.getTraceId()).isEqualTo(producer.getTraceId());
        assertThat(receiver.requestsFor("payout-W-17")).hasSize(1);
        assertThat(receiver.requestsFor("payout-W-17").get(0).header("traceparent"))
                .isEqualTo(traceparent(delivery));
        assertThat(delivery.getAttributes().get(DeliveryTracing.OUTCOME)).isEqualTo("acked");
    }

    @Test
    void withTracingOffTheWebhookForwardsTheProducersContextAsWritten() {
        receiver = Receiver.start(queue::serverNow, (req, ex) -> Receiver.reply(ex, 200, "ok"));
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_DELIVERY", "webhook");
        env.put("DELAYQ_WEBHOOK_URL", receiver.url().toString());
        workers.start(env, Deliveries.forConfig(WorkerConfig.fromEnv(env)), OpenTelemetry.noop());
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        queue.client().enqueue(TaskSpec.of("hand-traced").payload("{}").traceContext(parent, "vendor=abc"));
        queue.client().enqueue(TaskSpec.of("untraced").payload("{}"));

        await().atMost(WAIT).until(() -> receiver.requestsFor("hand-traced").size() == 1 && receiver.requestsFor("untraced").size() == 1);
        assertThat(receiver.requestsFor("hand-traced").get(0).header("traceparent")).isEqualTo(parent);
        assertThat(receiver.requestsFor("hand-traced").get(0).header("tracestate")).isEqualTo("vendor=abc");
        assertThat(receiver.requestsFor("untraced").get(0).header("traceparent")).isNull();
    }

    @Test
    void theStreamEntryCarriesTraceparent() {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_DELIVERY", "stream");
        env.put("DELAYQ_STREAM_KEY", "orders:ready");
        workers.start(env, Deliveries.forConfig(WorkerConfig.fromEnv(env)), sdk);
        SpanData producer = enqueueInSpan(TaskSpec.of("order-1").payload("x"));

        await().atMost(WAIT).until(() -> consumerSpans("order-1").size() == 1);
        List<StreamMessage<String, String>> entries = TestQueue.get(queue.redis().xrange("orders:ready", Range.create("-", "+")));
        assertThat(entries).hasSize(1);
        assertThat(entries.get(0).getBody()).containsEntry("traceparent",
                traceparent(consumerSpans("order-1").get(0)));
    }

    @Test
    void anExpiredTaskLeavesASpanSayingSo() {
        long now = queue.serverNow();
        long expires = now + 300;
        SpanData producer = enqueueInSpan(TaskSpec.of("coupon-C-9").payload("x").at(Instant.ofEpochMilli(now + 100))
                .expiresAt(Instant.ofEpochMilli(expires), ExpiryAction.DISCARD));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> queue.serverNow() > expires);
        workers.start(RunningWorkers.env(redis.url(), Q, 4), r -> new HandlerDelivery(task -> {
            throw new AssertionError("an expired task must not run");
        }), sdk);

        await().atMost(WAIT).until(() -> consumerSpans("coupon-C-9").size() == 1);
        SpanData d = consumerSpans("coupon-C-9").get(0);
        assertThat(d.getParentSpanId()).isEqualTo(producer.getSpanId());
        assertThat(d.getAttributes().get(DeliveryTracing.OUTCOME)).isEqualTo("discarded");
    }

    @Test
    void withoutAProducerSpanNothingIsRecordedInTheTaskAndTheWorkerStartsATrace() {
        queue.client().enqueue(TaskSpec.of("cron-1").payload("x"));
        assertThat(queue.storedRecord("cron-1")).doesNotContain("traceparent");
        workers.start(RunningWorkers.env(redis.url(), Q, 4), r -> new HandlerDelivery(task -> { }), sdk);
        await().atMost(WAIT).until(() -> consumerSpans("cron-1").size() == 1);
        assertThat(consumerSpans("cron-1").get(0).getParentSpanContext().isValid()).isFalse();
    }
}
