package io.delayq.delivery.kafka;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.settings.WorkerSettings.*;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka hand-off to a secured broker, each way in against the real KRaft broker's listener for it (TLS with the
 * broker's CA, mutual TLS with a client certificate, SASL PLAIN, SASL SCRAM-SHA-512 over TLS), configured only by the
 * worker's DELAYQ_KAFKA_* settings: with the right CA, certificate or password the task arrives and is acked once the
 * broker acknowledged it; with a wrong one the send fails, and the task is retried with its error, never acked, until
 * a worker with the right settings delivers it.
 */
class KafkaSecuredDeliveryTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static KafkaBroker kafka = new KafkaBroker();

    private static final String Q = "secured";
    private static final AtomicInteger TOPICS = new AtomicInteger();

    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private final List<TopicReader> readers = new ArrayList<>();
    @TempDir
    Path files;

    @AfterEach
    void close() throws InterruptedException {
        workers.close();
        for (TopicReader r : readers) {
            r.close();
        }
    }

    @Test
    void tlsWithTheBrokersCaDeliversAndAnotherCaIsRetriedNotAcked() throws Exception {
        Path otherCa = Files.writeString(files.resolve("other-ca.pem"), TestAuthority.named("someone else's CA").certificatePem());
        Map<String, String> tls = Map.of(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.tlsBootstrapServers(), KAFKA_SECURITY_PROTOCOL.name(), "ssl");

        refusedThenDelivered("invoice-1",
                with(tls, KAFKA_TLS_CA.name(), otherCa.toString()), "SslAuthenticationException: SSL handshake failed",
                with(tls, KAFKA_TLS_CA.name(), kafka.caFile().toString()));
    }

    @Test
    void mutualTlsNeedsTheClientCertificate() throws Exception {
        Map<String, String> tls = Map.of(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.mutualTlsBootstrapServers(),
                KAFKA_SECURITY_PROTOCOL.name(), "ssl", KAFKA_TLS_CA.name(), kafka.caFile().toString());
        Map<String, String> withCertificate = with(with(tls, KAFKA_TLS_CERT.name(), kafka.clientCertificateFile().toString()),
                KAFKA_TLS_KEY.name(), kafka.clientKeyFile().toString());

        // TLS 1.3: the broker refuses the missing certificate after the client finished its side of the handshake
        refusedThenDelivered("invoice-2", tls, "SslAuthenticationException", withCertificate);
    }

    @Test
    void saslPlainCredentialsAreSentAndAWrongPasswordIsRetriedNotAcked() throws Exception {
        Map<String, String> sasl = Map.of(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.saslBootstrapServers(),
                KAFKA_SECURITY_PROTOCOL.name(), "sasl_plaintext", KAFKA_USERNAME.name(), KafkaBroker.USER);

        refusedThenDelivered("refund-1",
                with(sasl, KAFKA_PASSWORD.name(), "not-the-password"), "Authentication failed",
                with(sasl, KAFKA_PASSWORD.name(), KafkaBroker.PASSWORD));
    }

    @Test
    void scramSha512OverTlsIsAcceptedAndAWrongPasswordIsRetriedNotAcked() throws Exception {
        Map<String, String> scram = Map.of(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.scramBootstrapServers(),
                KAFKA_SECURITY_PROTOCOL.name(), "sasl_ssl", KAFKA_SASL_MECHANISM.name(), "SCRAM-SHA-512",
                KAFKA_TLS_CA.name(), kafka.caFile().toString(), KAFKA_USERNAME.name(), KafkaBroker.USER);

        refusedThenDelivered("refund-2",
                with(scram, KAFKA_PASSWORD.name(), "not-the-password"), "Authentication failed",
                with(scram, KAFKA_PASSWORD.name(), KafkaBroker.PASSWORD));
    }

    /**
     * A worker with the {@code refused} settings tries the task and is turned away (its error containing
     * {@code error}): retried, never acked, nothing on the topic. A worker with the {@code accepted} settings then
     * delivers it, and acks it once the broker acknowledged the record.
     */
    private void refusedThenDelivered(String id, Map<String, String> refused, String error, Map<String, String> accepted) throws Exception {
        String topic = "invoices.due." + TOPICS.incrementAndGet();
        kafka.createTopic(topic, 1);
        TopicReader reader = new TopicReader(kafka.bootstrapServers(), topic);
        readers.add(reader);

        Worker turnedAway = worker(topic, refused);
        queue.client().enqueue(TaskSpec.of(id).payload("due " + id));
        await().atMost(Duration.ofSeconds(20)).until(() -> queue.client().inspect(id), t -> t.attempts() >= 2 && t.lastError() != null);
        assertThat(queue.client().inspect(id).lastError()).contains(topic).contains(error);
        assertThat(outcomes(turnedAway, "acked")).isZero();
        assertThat(outcomes(turnedAway, "dead")).isZero();
        assertThat(reader.keys()).isZero();
        workers.close();

        Worker w = worker(topic, accepted);
        await().atMost(Duration.ofSeconds(30)).until(() -> reader.keys() == 1);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(outcomes(w, "acked")).isEqualTo(1));
        assertThat(reader.byKey().get(id)).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo("due " + id);
            assertThat(Integer.parseInt(r.header(Headers.ATTEMPT))).isGreaterThan(1);
        });
        assertThat(queue.client().stats().shards()).allSatisfy(s -> assertThat(s.due() + s.scheduled() + s.inflight() + s.dead()).isZero());
    }

    private Worker worker(String topic, Map<String, String> access) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        env.put(DELIVERY.name(), "kafka");
        env.put(KAFKA_TOPIC.name(), topic);
        // a refused connection is noticed within a second
        env.put(KAFKA_TIMEOUT.name(), "1s");
        env.put(RETRY_MAX_ATTEMPTS.name(), "1000");
        env.putAll(access);
        return workers.startConfigured(env);
    }

    private static Map<String, String> with(Map<String, String> settings, String name, String value) {
        Map<String, String> more = new HashMap<>(settings);
        more.put(name, value);
        return more;
    }
}
