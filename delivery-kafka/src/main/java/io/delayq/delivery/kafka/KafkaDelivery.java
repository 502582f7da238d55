package io.delayq.delivery.kafka;

import io.delayq.handler.Task;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.Outcome;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Produces each due task to a Kafka topic: key = task id, value = payload, headers = {@link Headers}. The task is
 * settled only once the broker acknowledged the record ({@code acks=all}); an error or no answer within the time-out
 * is a retry with the queue's backoff, never an ack. A record may still arrive after its send was given up, or a
 * lost ack be followed by a second record: consumers deduplicate by key (the task id).
 */
public final class KafkaDelivery implements Delivery {
    /**
     * Beyond the producer's delivery time-out, which completes every send it accepted (send() itself waits for metadata
     * at most the time-out too): only a producer that hangs outright meets it.
     */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final KafkaTarget target;
    private final Producer<String, byte[]> producer;

    public KafkaDelivery(KafkaTarget target) {
        this(target, new KafkaProducer<>(target.producerProperties()));
    }

    KafkaDelivery(KafkaTarget target, Producer<String, byte[]> producer) {
        this.target = target;
        this.producer = producer;
    }

    @Override
    public String target() {
        return target.describe();
    }

    @Override
    public Outcome deliver(Task task) {
        RecordHeaders headers = Headers.of(task);
        // traceparent / tracestate of the delivery's span (or the producer's context), for the topic's consumers
        W3CTraceContextPropagator.getInstance().inject(Context.current(), headers,
                (h, key, value) -> h.add(key, value.getBytes(StandardCharsets.UTF_8)));
        byte[] value = task.payload() == null ? new byte[0] : task.payload().getBytes(StandardCharsets.UTF_8);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(target.topic(), null, task.id(), value, headers);
        try {
            producer.send(record).get(target.timeout().plus(GRACE).toMillis(), TimeUnit.MILLISECONDS);
            return Outcome.DONE;
        } catch (ExecutionException e) {
            return failed(e.getCause() == null ? e : e.getCause());
        } catch (TimeoutException e) {
            return new Outcome.Retry("Kafka did not acknowledge the record for topic " + target.topic() + " in time", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        } catch (RuntimeException e) {
            return failed(e);
        }
    }

    /**
     * A record the broker can never take (too large for the topic) is dead-lettered; anything else, an unreachable
     * broker, a missing topic or a refused authorization, may pass once the cause is fixed, and is retried.
     */
    private Outcome failed(Throwable cause) {
        String error = "producing to Kafka topic " + target.topic() + " failed: " + Outcome.describe(cause);
        if (cause instanceof RecordTooLargeException || cause instanceof InvalidTopicException) {
            return new Outcome.Dead(error);
        }
        return new Outcome.Retry(error, null);
    }

    @Override
    public void close() {
        // the worker has settled its deliveries before it closes this: nothing is waiting for an acknowledgement
        producer.close(Duration.ofSeconds(5));
    }
}
