package io.delayq.delivery.kafka;

import io.delayq.worker.config.EnvChanges;

import io.delayq.settings.ConfigException;
import io.delayq.worker.config.DeliveryKind;
import io.delayq.worker.config.WorkerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** DELAYQ_DELIVERY=kafka as the worker reads it: the module is found by name, its settings checked with clear errors. */
class KafkaSettingsTest {
    private static final String PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

    @TempDir
    static Path dir;

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>(Map.of(
                "DELAYQ_REDIS_URL", "redis://localhost:6379",
                "DELAYQ_QUEUE", "orders",
                "DELAYQ_SHARDS", "4",
                "DELAYQ_DELIVERY", "kafka",
                "DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "kafka-0.kafka:9092,kafka-1.kafka:9092",
                "DELAYQ_KAFKA_TOPIC", "orders.due"));
        return EnvChanges.apply(env, pairs);
    }

    private static KafkaTarget target(Map<String, String> env) {
        WorkerConfig c = WorkerConfig.fromEnv(env);
        assertThat(c.delivery()).isEqualTo(DeliveryKind.PROVIDED);
        return (KafkaTarget) c.provided();
    }

    private static String file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p.toString();
    }

    @Test
    void theWorkerFindsTheKafkaDeliveryByNameWithItsDefaults() {
        WorkerConfig c = WorkerConfig.fromEnv(env("DELAYQ_DELIVERY", "Kafka"));
        assertThat(c.provided()).isInstanceOf(KafkaTarget.class);
        assertThat(c.concurrency()).isEqualTo(256);
        assertThat(c.describe()).contains("delivery=kafka");
        KafkaTarget t = (KafkaTarget) c.provided();
        assertThat(t.topic()).isEqualTo("orders.due");
        assertThat(t.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(t.clientId()).isEqualTo("delayq-orders");

        Map<String, Object> p = t.producerProperties();
        assertThat(p).containsEntry("bootstrap.servers", "kafka-0.kafka:9092,kafka-1.kafka:9092")
                .containsEntry("acks", "all")
                .containsEntry("enable.idempotence", true)
                .containsEntry("security.protocol", "PLAINTEXT")
                .containsEntry("compression.type", "none")
                .containsEntry("delivery.timeout.ms", 10_000)
                .containsEntry("max.block.ms", 10_000L)
                .doesNotContainKey("sasl.jaas.config");
    }

    @Test
    void everyKafkaVariableIsDocumented() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "worker.md"));
        assertThat(io.delayq.settings.WorkerSettings.KAFKA).allSatisfy(s -> assertThat(doc).contains("`" + s.name() + "`"));
    }

    @Test
    void theTimeoutIsTheSendsWholeBudget() {
        Map<String, Object> p = target(env("DELAYQ_KAFKA_TIMEOUT", "1500ms")).producerProperties();
        assertThat(p).containsEntry("delivery.timeout.ms", 1500).containsEntry("max.block.ms", 1500L)
                .containsEntry("request.timeout.ms", 1495).containsEntry("linger.ms", 5);
    }

    @Test
    void saslOverTlsWithACaFileAndAClientCertificate() throws IOException {
        KafkaTarget t = target(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "DELAYQ_KAFKA_SASL_MECHANISM", "scram-sha-512",
                "DELAYQ_KAFKA_USERNAME", "delayq", "DELAYQ_KAFKA_PASSWORD", "s3cr\"et",
                "DELAYQ_KAFKA_TLS_CA", file("ca.pem", PEM), "DELAYQ_KAFKA_TLS_CERT", file("client.pem", PEM),
                "DELAYQ_KAFKA_TLS_KEY", file("client.key", "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"),
                "DELAYQ_KAFKA_COMPRESSION", "ZSTD"));
        Map<String, Object> p = t.producerProperties();
        assertThat(p).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"delayq\" password=\"s3cr\\\"et\";")
                .containsEntry("ssl.truststore.type", "PEM")
                .containsEntry("ssl.truststore.certificates", PEM)
                .containsEntry("ssl.keystore.type", "PEM")
                .containsEntry("ssl.keystore.certificate.chain", PEM)
                .containsEntry("compression.type", "zstd");
        assertThat(p.get("ssl.keystore.key").toString()).startsWith("-----BEGIN PRIVATE KEY-----");
        // the start-up line and the record's text name the user, never the password
        assertThat(t.describe()).contains("sasl_ssl SCRAM-SHA-512 as delayq").doesNotContain("s3cr");
        assertThat(t.toString()).doesNotContain("s3cr");
    }

    static Stream<Arguments> badSettings() throws IOException {
        String notPem = file("not.pem", "hello");
        return Stream.of(
                arguments(env("DELAYQ_DELIVERY", "rabbitmq"), "DELAYQ_DELIVERY",
                        "must be handler, webhook, stream or the name of an installed delivery module (installed: kafka), got 'rabbitmq'"),
                arguments(env("DELAYQ_KAFKA_BOOTSTRAP_SERVERS", null), "DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "is required when DELAYQ_DELIVERY=kafka"),
                arguments(env("DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "kafka:9092,kafka-1"), "DELAYQ_KAFKA_BOOTSTRAP_SERVERS",
                        "must be a comma-separated list of host:port (port 1 to 65535), got 'kafka:9092,kafka-1'"),
                arguments(env("DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "kafka:99999"), "DELAYQ_KAFKA_BOOTSTRAP_SERVERS", "port 1 to 65535"),
                arguments(env("DELAYQ_KAFKA_TOPIC", null), "DELAYQ_KAFKA_TOPIC", "is required when DELAYQ_DELIVERY=kafka"),
                arguments(env("DELAYQ_KAFKA_TOPIC", "orders/due"), "DELAYQ_KAFKA_TOPIC", "must be a Kafka topic name"),
                arguments(env("DELAYQ_KAFKA_TOPIC", ".."), "DELAYQ_KAFKA_TOPIC", "and not '.' or '..', got '..'"),
                arguments(env("DELAYQ_KAFKA_TOPIC", "t".repeat(250)), "DELAYQ_KAFKA_TOPIC", "1 to 249"),
                arguments(env("DELAYQ_KAFKA_TIMEOUT", "20m"), "DELAYQ_KAFKA_TIMEOUT", "must be between 100ms and 10m, got 20m"),
                arguments(env("DELAYQ_KAFKA_TIMEOUT", "soon"), "DELAYQ_KAFKA_TIMEOUT", "must be a duration"),
                arguments(env("DELAYQ_KAFKA_COMPRESSION", "brotli"), "DELAYQ_KAFKA_COMPRESSION", "must be one of none, gzip, snappy, lz4, zstd, got 'brotli'"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "tls"), "DELAYQ_KAFKA_SECURITY_PROTOCOL",
                        "must be one of plaintext, ssl, sasl_plaintext, sasl_ssl, got 'tls'"),
                arguments(env("DELAYQ_KAFKA_USERNAME", "delayq", "DELAYQ_KAFKA_PASSWORD", "x"), "DELAYQ_KAFKA_USERNAME",
                        "needs DELAYQ_KAFKA_SECURITY_PROTOCOL=sasl_ssl (or sasl_plaintext)"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "sasl_ssl", "DELAYQ_KAFKA_USERNAME", "delayq"), "DELAYQ_KAFKA_PASSWORD",
                        "is required when DELAYQ_KAFKA_SECURITY_PROTOCOL=sasl_ssl"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "sasl_ssl", "DELAYQ_KAFKA_USERNAME", "u", "DELAYQ_KAFKA_PASSWORD", "p",
                        "DELAYQ_KAFKA_SASL_MECHANISM", "GSSAPI"), "DELAYQ_KAFKA_SASL_MECHANISM", "must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512"),
                arguments(env("DELAYQ_KAFKA_TLS_CA", "/etc/ca.pem"), "DELAYQ_KAFKA_TLS_CA", "needs DELAYQ_KAFKA_SECURITY_PROTOCOL=ssl (or sasl_ssl)"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "ssl", "DELAYQ_KAFKA_TLS_CA", "/nowhere/ca.pem"), "DELAYQ_KAFKA_TLS_CA",
                        "must name a readable PEM file, cannot read /nowhere/ca.pem"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "ssl", "DELAYQ_KAFKA_TLS_CA", notPem), "DELAYQ_KAFKA_TLS_CA", "is not one"),
                arguments(env("DELAYQ_KAFKA_SECURITY_PROTOCOL", "ssl", "DELAYQ_KAFKA_TLS_CERT", notPem), "DELAYQ_KAFKA_TLS_KEY",
                        "is required with DELAYQ_KAFKA_TLS_CERT"));
    }

    @ParameterizedTest
    @MethodSource("badSettings")
    void aBadSettingIsRefusedNamingItsVariableAndTheRule(Map<String, String> env, String variable, String rule) {
        assertThatThrownBy(() -> WorkerConfig.fromEnv(env))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith(variable + ": ")
                .hasMessageContaining(rule);
    }
}
