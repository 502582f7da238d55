package io.delayq.delivery.kafka;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.settings.WorkerSettings.*;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka hand-off against a real KRaft broker, a real redis-server and a real worker started from its settings
 * (DELAYQ_DELIVERY=kafka, found through the worker's DeliveryProvider service): every due task reaches the topic keyed
 * by its id with its headers, and a task is acked only after the broker acknowledged its record. The secured ways in
 * are in KafkaSecuredDeliveryTest.
 */
class KafkaDeliveryTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static KafkaBroker kafka = new KafkaBroker();

    private static final String Q = "handoff";
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private final List<TopicReader> readers = new ArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        workers.close();
        for (TopicReader r : readers) {
            r.close();
        }
    }

    private static String newTopic() {
        return "orders.due." + TOPICS.incrementAndGet();
    }

    private TopicReader read(String topic) {
        TopicReader r = new TopicReader(kafka.bootstrapServers(), topic);
        readers.add(r);
        return r;
    }

    private Worker worker(String topic, Map<String, String> extra) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put(DELIVERY.name(), "kafka");
        env.put(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.bootstrapServers());
        env.put(KAFKA_TOPIC.name(), topic);
        // a down broker is noticed within a second
        env.put(KAFKA_TIMEOUT.name(), "1s");
        env.put(CONCURRENCY.name(), "32");
        env.put(RETRY_MAX_ATTEMPTS.name(), "1000");
        env.putAll(extra);
        return workers.startConfigured(env);
    }

    @Test
    void everyDueTaskArrivesOnceKeyedByItsIdWithItsHeaders() throws Exception {
        String topic = newTopic();
        kafka.createTopic(topic, 3);
        TopicReader reader = read(topic);
        Worker w = worker(topic, Map.of());
        long base = queue.serverNow() - 2000;
        int n = 300;
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(Instant.ofEpochMilli(base + i)).payload("{\"order\":" + i + "}"));
        }
        queue.client().enqueueAll(tasks);
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        queue.client().enqueue(TaskSpec.of("traced").payload("t").traceContext(parent, "vendor=abc"));

        await().atMost(Duration.ofSeconds(30)).until(() -> reader.keys() == n + 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(n + 1));
        for (int i = 0; i < n; i++) {
            String id = "order-" + i;
            long dueAt = base + i;
            String payload = "{\"order\":" + i + "}";
            assertThat(reader.byKey().get(id)).as(id).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo(id);
                assertThat(r.value()).isEqualTo(payload);
                assertThat(r.headers()).containsEntry(Headers.ID, id).containsEntry(Headers.QUEUE, Q)
                        .containsEntry(Headers.ATTEMPT, "1").containsEntry(Headers.DUE_AT, String.valueOf(dueAt))
                        .doesNotContainKey("traceparent");
            });
        }
        // the producer's trace context travels on (no tracing SDK in this worker: the context is passed as it came)
        assertThat(reader.byKey().get("traced")).singleElement().satisfies(r -> {
            assertThat(r.header("traceparent")).isEqualTo(parent);
            assertThat(r.header("tracestate")).isEqualTo("vendor=abc");
        });
        // keyed by id: the default partitioner spreads the tasks over the topic's partitions
        assertThat(reader.all().stream().map(TopicReader.Received::partition).distinct()).hasSize(3);
        assertThat(queue.client().stats().shards()).allSatisfy(s -> assertThat(s.due() + s.scheduled() + s.inflight() + s.dead()).isZero());
    }

    @Test
    void aMissingTopicIsRetriedAndTheTaskArrivesOnceTheTopicExists() throws Exception {
        String topic = newTopic();
        Worker w = worker(topic, Map.of());
        queue.client().enqueue(TaskSpec.of("order-77").payload("cancel-if-unpaid"));

        await().atMost(Duration.ofSeconds(20)).until(() -> queue.client().inspect("order-77"),
                t -> t.attempts() >= 2 && t.lastError() != null);
        TaskInfo failing = queue.client().inspect("order-77");
        assertThat(failing.state()).isIn(TaskInfo.State.SCHEDULED, TaskInfo.State.IN_FLIGHT);
        assertThat(failing.lastError()).contains(topic);
        assertThat(outcomes(w, "acked")).isZero();

        kafka.createTopic(topic, 1);
        TopicReader reader = read(topic);
        await().atMost(Duration.ofSeconds(30)).until(() -> reader.keys() == 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
        assertThat(reader.byKey().get("order-77")).allSatisfy(r -> assertThat(Integer.parseInt(r.header(Headers.ATTEMPT))).isGreaterThan(1));
        assertThat(outcomes(w, "dead")).isZero();
    }

    @Test
    void aBrokerStoppedMidRunLosesNothingAndNoTaskIsAckedWhileItIsDown() throws Exception {
        String topic = newTopic();
        kafka.createTopic(topic, 3);
        TopicReader reader = read(topic);
        Worker w = worker(topic, Map.of());
        // due over the next 6 s: some before the broker stops, most while it is down
        long base = queue.serverNow();
        int n = 400;
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(Instant.ofEpochMilli(base + i * 15L)).payload("p" + i));
        }
        queue.client().enqueueAll(tasks);
        await().atMost(Duration.ofSeconds(20)).until(() -> reader.keys() >= 20);

        kafka.stop();
        double ackedAtStop = outcomes(w, "acked");
        // the worker keeps claiming and trying: the sends fail and are retried with the queue's backoff
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes(w, "retried") >= 20);
        double ackedWhileDown = outcomes(w, "acked");
        await().atMost(Duration.ofSeconds(30)).until(() -> outcomes(w, "retried") >= 100);
        // sends already acknowledged when the broker stopped may still have been settled after it; none since
        assertThat(outcomes(w, "acked")).isEqualTo(ackedWhileDown).isLessThan(n);
        assertThat(ackedWhileDown - ackedAtStop).isLessThanOrEqualTo(32);
        assertThat(outcomes(w, "dead")).isZero();

        kafka.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> reader.keys() == n);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(n));
        assertThat(outcomes(w, "dead")).isZero();
        for (int i = 0; i < n; i++) {
            assertThat(reader.byKey().get("order-" + i)).as("order-" + i).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.value()).isEqualTo(r.key().replace("order-", "p")));
        }
        // the tasks that waited for the broker came with their later attempt
        assertThat(reader.all().stream().filter(r -> Integer.parseInt(r.header(Headers.ATTEMPT)) > 1).count()).isGreaterThan(0);
        assertThat(queue.client().stats().shards()).allSatisfy(s -> assertThat(s.due() + s.scheduled() + s.inflight() + s.dead()).isZero());
    }
}
