package io.delayq.delivery.kafka;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A consumer group member reading a topic from its start on a thread of its own: every record it got, by key. */
final class TopicReader implements AutoCloseable {
    /** One record as a consumer sees it. */
    record Received(String key, String value, int partition, long timestamp, Map<String, String> headers) {
        String header(String name) {
            return headers.get(name);
        }
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final Map<String, List<Received>> byKey = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    TopicReader(String bootstrapServers, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "test-" + topic,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
        consumer.subscribe(List.of(topic));
        thread = new Thread(this::run, "topic-reader-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Map<String, String> headers = new HashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8));
                    }
                    byKey.computeIfAbsent(r.key(), k -> new CopyOnWriteArrayList<>())
                            .add(new Received(r.key(), new String(r.value(), StandardCharsets.UTF_8), r.partition(), r.timestamp(), headers));
                }
            }
        } catch (WakeupException stopping) {
            // close() woke the poll
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Task id → every record that carried it. */
    Map<String, List<Received>> byKey() {
        return byKey;
    }

    int keys() {
        return byKey.size();
    }

    List<Received> all() {
        List<Received> all = new ArrayList<>();
        byKey.values().forEach(all::addAll);
        return all;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5000);
    }
}
