package io.delayq.delivery.kafka;

import io.delayq.handler.Task;
import io.delayq.worker.delivery.Outcome;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a send's end becomes (with Kafka's MockProducer; the real broker is in KafkaDeliveryTest): the broker's ack is
 * the only ack, a record the topic can never take is dead-lettered, anything else is retried.
 */
class KafkaDeliveryOutcomeTest {
    private static final Task TASK = new Task("orders", 3, "order-8812", 2, 1_767_000_000_000L, "cancel-if-unpaid", null, 0);
    private static final KafkaTarget TARGET = new KafkaTarget("127.0.0.1:9092", "orders.due", Duration.ofSeconds(1), "delayq-orders", "none",
            new KafkaAccess("plaintext", null, null, null, null, null, null));

    private static MockProducer<String, byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    }

    private static String header(ProducerRecord<String, byte[]> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Test
    void anAcknowledgedRecordIsDoneAndCarriesTheTaskAndItsTraceContext() {
        MockProducer<String, byte[]> producer = producer(true);
        SpanContext span = SpanContext.create("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", TraceFlags.getSampled(), TraceState.getDefault());
        Outcome outcome;
        try (Scope ignored = Context.root().with(Span.wrap(span)).makeCurrent()) {
            outcome = new KafkaDelivery(TARGET, producer).deliver(TASK);
        }

        assertThat(outcome).isEqualTo(Outcome.DONE);
        ProducerRecord<String, byte[]> r = producer.history().get(0);
        assertThat(r.topic()).isEqualTo("orders.due");
        assertThat(r.key()).isEqualTo("order-8812");
        assertThat(new String(r.value(), StandardCharsets.UTF_8)).isEqualTo("cancel-if-unpaid");
        assertThat(header(r, Headers.ID)).isEqualTo("order-8812");
        assertThat(header(r, Headers.QUEUE)).isEqualTo("orders");
        assertThat(header(r, Headers.ATTEMPT)).isEqualTo("2");
        assertThat(header(r, Headers.DUE_AT)).isEqualTo("1767000000000");
        assertThat(header(r, "traceparent")).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    @Test
    void aTaskWithoutPayloadIsAnEmptyValueNotATombstone() {
        MockProducer<String, byte[]> producer = producer(true);
        Task empty = new Task("orders", 0, "ping", 1, 0, null, null, 0);
        assertThat(new KafkaDelivery(TARGET, producer).deliver(empty)).isEqualTo(Outcome.DONE);
        assertThat(producer.history().get(0).value()).isEmpty();
        assertThat(header(producer.history().get(0), "traceparent")).isNull();
    }

    @Test
    void aBrokerErrorIsARetryWithTheQueuesBackoff() {
        Outcome outcome = failWith(new NetworkException("Disconnected from node 1"));
        assertThat(outcome).isInstanceOfSatisfying(Outcome.Retry.class, r -> {
            assertThat(r.after()).isNull();
            assertThat(r.error()).isEqualTo("producing to Kafka topic orders.due failed: NetworkException: Disconnected from node 1");
        });
    }

    @Test
    void aRecordTooLargeForTheTopicIsDeadLettered() {
        assertThat(failWith(new RecordTooLargeException("The message is 2000000 bytes")))
                .isInstanceOfSatisfying(Outcome.Dead.class, d -> assertThat(d.error()).contains("RecordTooLargeException"));
    }

    private static Outcome failWith(RuntimeException error) {
        MockProducer<String, byte[]> producer = producer(false);
        CompletableFuture<Outcome> outcome = CompletableFuture.supplyAsync(() -> new KafkaDelivery(TARGET, producer).deliver(TASK));
        // the delivery waits for the broker's answer: nothing is decided before it comes
        await().until(() -> producer.history().size() == 1);
        assertThat(outcome).isNotDone();
        assertThat(producer.errorNext(error)).isTrue();
        return outcome.join();
    }
}
