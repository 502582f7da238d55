package io.delayq.security;

import io.delayq.client.DelayQueueClient;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * TLS to Redis with certificates the test makes: a redis-server listening on TLS only, a producer
 * and a worker on {@code rediss://} trusting the test CA through {@code DELAYQ_REDIS_TLS_CA} (system
 * property {@code delayq.redis.tls.ca} in-process), and the refusals that make TLS worth having:
 * an unknown CA, a certificate for another host, plain text. Skipped where redis-server lacks TLS.
 */
class RedisTlsTest {
    private static final String CA_PROPERTY = "delayq.redis.tls.ca";
    private static Path certs;
    private static Boolean tlsRedis;
    private TlsRedisServer redis;

    @BeforeEach
    void certificatesAndServer() throws Exception {
        assumeThat(TestCertificates.opensslAvailable()).as("openssl on PATH").isTrue();
        if (certs == null) {
            certs = Files.createTempDirectory("delayq-tls-certs-");
            TestCertificates.ca(certs, "ca");
            TestCertificates.ca(certs, "other-ca");
            TestCertificates.server(certs, "ca", "redis", "IP:127.0.0.1,DNS:localhost");
            TestCertificates.server(certs, "ca", "elsewhere", "DNS:redis.elsewhere.example");
            tlsRedis = TlsRedisServer.supported(certs, "redis");
        }
        assumeThat(tlsRedis).as("a redis-server on PATH built with TLS").isTrue();
        redis = TlsRedisServer.start(certs, "redis");
    }

    @AfterEach
    void stop() throws Exception {
        System.clearProperty(CA_PROPERTY);
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void producerAndWorkerUseRedissTrustingTheTestCa() throws Exception {
        System.setProperty(CA_PROPERTY, certs.resolve("ca.crt").toString());
        String url = "rediss://127.0.0.1:" + redis.port();
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(url).queue("tls-orders").shards(4).build()) {
            for (int i = 0; i < 20; i++) {
                producer.enqueue(TaskSpec.of("o-" + i).after(Duration.ofMillis(i * 20L)));
            }
            Map<String, String> env = new HashMap<>();
            env.put("DELAYQ_REDIS_URL", url);
            env.put("DELAYQ_QUEUE", "tls-orders");
            env.put("DELAYQ_SHARDS", "4");
            env.put("DELAYQ_HTTP_PORT", "0");
            env.put("DELAYQ_POLL_INTERVAL", "100ms");
            try (Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> handled.add(t.id())))) {
                await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() == 20);
                assertThat(worker.ready()).isTrue();
            }
            assertThat(producer.stats().inflight() + producer.stats().due() + producer.stats().scheduled()).isZero();
        }
    }

    @Test
    void aServerSignedByAnotherCaIsRefused() {
        System.setProperty(CA_PROPERTY, certs.resolve("other-ca.crt").toString());
        assertThatThrownBy(() -> RedisEndpoint.connect("rediss://127.0.0.1:" + redis.port()).close())
                .hasStackTraceContaining("SSLHandshakeException").hasStackTraceContaining("unable to find valid certification path");
        System.clearProperty(CA_PROPERTY);
        // and without a CA file the JVM's trust store decides: it does not know the test CA either
        assertThatThrownBy(() -> RedisEndpoint.connect("rediss://127.0.0.1:" + redis.port()).close())
                .hasStackTraceContaining("SSLHandshakeException").hasStackTraceContaining("unable to find valid certification path");
    }

    @Test
    void aCertificateForAnotherHostIsRefused() throws Exception {
        System.setProperty(CA_PROPERTY, certs.resolve("ca.crt").toString());
        try (TlsRedisServer impostor = TlsRedisServer.start(certs, "elsewhere")) {
            // signed by the trusted CA, but issued to redis.elsewhere.example: the host name check refuses it
            assertThatThrownBy(() -> RedisEndpoint.connect("rediss://127.0.0.1:" + impostor.port()).close())
                    .hasStackTraceContaining("SSLHandshakeException")
                    .hasStackTraceContaining("No subject alternative names matching IP address 127.0.0.1");
        }
    }

    @Test
    void thereIsNoPlainTextWayIn() {
        System.setProperty(CA_PROPERTY, certs.resolve("ca.crt").toString());
        assertThatThrownBy(() -> {
            try (RedisEndpoint plain = RedisEndpoint.connect("redis://127.0.0.1:" + redis.port(), null, Duration.ofSeconds(2))) {
                plain.commands().ping().get(3, TimeUnit.SECONDS);
            }
        }).isInstanceOf(Exception.class);
    }

    @Test
    void aCaFileThatDoesNotExistIsAClearConfigurationError() {
        System.setProperty(CA_PROPERTY, certs.resolve("missing.crt").toString());
        assertThatThrownBy(() -> RedisEndpoint.connect("rediss://127.0.0.1:" + redis.port()))
                .hasMessageContaining("DELAYQ_REDIS_TLS_CA").hasMessageContaining("readable PEM file");
    }

    /** The packaged worker, as the operator runs it: the CA comes from the DELAYQ_REDIS_TLS_CA environment variable. */
    @Test
    void packagedWorkerProcessTrustsTheCaNamedByTheEnvironment() throws Exception {
        Path jar = Path.of(System.getProperty("delayq.worker.jar", "../app/target/delayq.jar"));
        assumeThat(Files.isRegularFile(jar)).as("the packaged worker " + jar).isTrue();
        System.setProperty(CA_PROPERTY, certs.resolve("ca.crt").toString());
        String url = "rediss://127.0.0.1:" + redis.port();
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(url).queue("tls-stream").shards(2).build()) {
            for (int i = 0; i < 10; i++) {
                producer.enqueue(TaskSpec.of("s-" + i));
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx128m", "-jar", jar.toAbsolutePath().toString()))
                    .redirectErrorStream(true).redirectOutput(Files.createTempFile("delayq-tls-worker-", ".log").toFile());
            pb.environment().keySet().removeIf(k -> k.startsWith("DELAYQ_"));
            pb.environment().putAll(Map.of("DELAYQ_REDIS_URL", url, "DELAYQ_REDIS_TLS_CA", certs.resolve("ca.crt").toString(),
                    "DELAYQ_QUEUE", "tls-stream", "DELAYQ_SHARDS", "2", "DELAYQ_DELIVERY", "stream",
                    "DELAYQ_STREAM_KEY", "ready:tls", "DELAYQ_HTTP_PORT", "0", "DELAYQ_POLL_INTERVAL", "100ms"));
            Process worker = pb.start();
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> producer.redis().commands().xlen("ready:tls").get() == 10);
            } finally {
                worker.destroy();
                assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(worker.exitValue()).as("graceful stop").isZero();
        }
    }

    /**
     * The outbox relay writes to the worker's {@code rediss://} Redis trusting the CA of the worker's
     * {@code DELAYQ_REDIS_TLS_CA}, read from the same variables as the worker (no system property, no process
     * environment), and refuses the server without it: a committed row reaches Redis over TLS only with the CA.
     */
    @Test
    void theOutboxRelayTrustsTheCaOfTheWorkersVariables() throws Exception {
        String url = "rediss://127.0.0.1:" + redis.port();
        try (io.delayq.localpostgres.LocalPostgres pg = io.delayq.localpostgres.LocalPostgres.start()) {
            try (java.sql.Connection db = pg.connect()) {
                io.delayq.outbox.migration.OutboxMigrations.migrate(db);
                db.setAutoCommit(false);
                io.delayq.outbox.Outbox.forQueue("tls-outbox").enqueue(db, TaskSpec.of("renew-1").after(Duration.ofHours(1)));
                db.commit();
            }
            Map<String, String> env = new HashMap<>(Map.of(
                    io.delayq.settings.WorkerSettings.OUTBOX_URL.name(), pg.jdbcUrl(),
                    io.delayq.settings.WorkerSettings.OUTBOX_USER.name(), pg.credentials().getProperty("user"),
                    io.delayq.settings.WorkerSettings.OUTBOX_POLL_INTERVAL.name(), "100ms",
                    io.delayq.settings.WorkerSettings.OUTBOX_RETRY_DELAY.name(), "100ms"));

            var withoutCa = io.delayq.outbox.relay.OutboxSettings.fromEnv(env, url, "tls-outbox", 2).orElseThrow();
            try (var relay = io.delayq.outbox.relay.OutboxRelay.start(withoutCa, new io.micrometer.core.instrument.simple.SimpleMeterRegistry())) {
                await().atMost(Duration.ofSeconds(30)).until(() -> relay.metrics().errors("redis") > 0);
                assertThat(relay.metrics().relayedTotal()).as("nothing reaches a Redis the relay does not trust").isZero();
            }

            env.put(io.delayq.settings.WorkerSettings.REDIS_TLS_CA.name(), certs.resolve("ca.crt").toString());
            var withCa = io.delayq.outbox.relay.OutboxSettings.fromEnv(env, url, "tls-outbox", 2).orElseThrow();
            try (var relay = io.delayq.outbox.relay.OutboxRelay.start(withCa, new io.micrometer.core.instrument.simple.SimpleMeterRegistry())) {
                await().atMost(Duration.ofSeconds(30)).until(() -> relay.metrics().relayedTotal() == 1);
            }
            try (RedisEndpoint endpoint = RedisEndpoint.connect(url, null, Duration.ofSeconds(5), certs.resolve("ca.crt"));
                 DelayQueueClient client = DelayQueueClient.builder().redis(endpoint).queue("tls-outbox").shards(2).build()) {
                assertThat(client.stats().scheduled()).as("the row, in Redis").isEqualTo(1);
            }
        }
    }
}
