package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.DelayQueueException;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code rediss://} with a private CA: the libraries verify the server against the CA they are given
 * (option or {@code DELAYQ_REDIS_TLS_CA}, as the worker) and refuse one signed by another. The server
 * listens on a plain port too, where the Java side checks what arrived.
 */
class TlsInteropTest {
    private static Path certs;
    private static LocalRedisServer server;
    private static int tlsPort;

    static List<Producer> producers() {
        return Producer.all();
    }

    @BeforeEach
    void tlsServer() throws IOException {
        assumeTrue(TestCertificates.opensslAvailable(), "openssl is needed to make the test certificates");
        if (server == null) {
            certs = Files.createTempDirectory("delayq-interop-tls-");
            TestCertificates.ca(certs, "ca");
            TestCertificates.ca(certs, "other-ca");
            TestCertificates.server(certs, "ca", "redis", "IP:127.0.0.1,DNS:localhost");
            tlsPort = LocalRedisServer.freePort();
            try {
                server = LocalRedisServer.start(LocalRedisServer.freePort(), List.of("--tls-port", String.valueOf(tlsPort),
                        "--tls-cert-file", certs.resolve("redis.crt").toString(), "--tls-key-file", certs.resolve("redis.key").toString(),
                        "--tls-ca-cert-file", certs.resolve("ca.crt").toString(), "--tls-auth-clients", "no"));
            } catch (DelayQueueException e) {
                assumeTrue(false, "the redis-server found is built without TLS: " + e.getMessage());
            }
        }
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void aProducerOverTlsWithAPrivateCaWritesWhatJavaReads(Producer p) {
        String queue = "tls-" + p.name();
        try (ProducerProcess lib = p.connect("rediss://localhost:" + tlsPort, queue, 4,
                Map.of("tlsCa", certs.resolve("ca.crt").toString())).connected();
             DelayQueueClient java = DelayQueueClient.builder().redis(server.url()).queue(queue).shards(4).build()) {
            JsonNode added = lib.ok(enqueue(task("order-8812", "delayMs", 60_000, "payload", "over TLS"))).get(0);
            assertThat(added.get("status").asText()).isEqualTo("ADDED");
            TaskInfo info = java.inspect("order-8812");
            assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("over TLS");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void aServerSignedByAnotherCaIsRefused(Producer p) {
        String queue = "tls-refused-" + p.name();
        try (ProducerProcess lib = p.connect("rediss://localhost:" + tlsPort, queue, 4,
                Map.of("tlsCa", certs.resolve("other-ca.crt").toString(), "timeoutMs", 3000))) {
            assertThat(lib.connectError()).as("%s trusted a server its CA did not sign", p).isNotNull();
            assertThat(lib.connectError().get("message").asText().toLowerCase()).containsAnyOf("certificate", "verify", "ssl", "tls");
        }
    }
}
