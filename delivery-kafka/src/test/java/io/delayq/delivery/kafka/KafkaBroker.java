package io.delayq.delivery.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one process), run in a JVM of its own from
 * the Kafka artifacts on the test class path, on free loopback ports. It can be stopped and started again on the same
 * ports and log folder, as a broker restarted by its operator. One per test class: a start takes seconds.
 *
 * <p>Besides PLAINTEXT it listens as a secured cluster would, one listener per way in: SASL PLAIN, TLS, TLS that
 * requires a client certificate, and SASL SCRAM-SHA-512 over TLS. Its certificate comes from an authority made up
 * at start ({@link TestAuthority}), whose certificate, and a client certificate it issued, are written as PEM files
 * for the worker.
 */
public final class KafkaBroker implements BeforeAllCallback, AfterAllCallback {
    private final String clusterId = Uuid.randomUuid().toString();
    private Path dir;
    /** The one user of the SASL listeners: PLAIN on {@link #saslBootstrapServers}, SCRAM-SHA-512 on {@link #scramBootstrapServers}. */
    public static final String USER = "delayq";
    public static final String PASSWORD = "kafka-pass-1";

    private int port;
    private int saslPort;
    private int tlsPort;
    private int mutualTlsPort;
    private int scramPort;
    private int controllerPort;
    private Process process;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("delayq-kafka");
        port = freePort();
        saslPort = freePort();
        tlsPort = freePort();
        mutualTlsPort = freePort();
        scramPort = freePort();
        controllerPort = freePort();
        TestAuthority ca = TestAuthority.named("delayq test CA");
        TestAuthority.Issued broker = ca.server("kafka", List.of("127.0.0.1"), List.of("localhost"));
        TestAuthority.Issued client = ca.client("delayq-worker");
        Files.writeString(caFile(), ca.certificatePem());
        Files.writeString(dir.resolve("broker.pem"), broker.keyPem() + broker.chainPem());
        Files.writeString(clientCertificateFile(), client.chainPem());
        Files.writeString(clientKeyFile(), client.keyPem());
        String address = "://127.0.0.1:";
        String advertised = "PLAINTEXT" + address + port + ",SASL_PLAINTEXT" + address + saslPort + ",SSL" + address + tlsPort
                + ",MTLS" + address + mutualTlsPort + ",SASL_SSL" + address + scramPort;
        Files.writeString(dir.resolve("server.properties"), String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=" + advertised + ",CONTROLLER" + address + controllerPort,
                "advertised.listeners=" + advertised,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,MTLS:SSL,SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT",
                "sasl.enabled.mechanisms=PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                        + "user_" + USER + "=\"" + PASSWORD + "\";",
                // the SCRAM user is written into the metadata log when the log folder is formatted (KafkaBrokerMain)
                "listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-512",
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;",
                "ssl.keystore.type=PEM",
                "ssl.keystore.location=" + dir.resolve("broker.pem"),
                "ssl.truststore.type=PEM",
                "ssl.truststore.location=" + caFile(),
                "listener.name.mtls.ssl.client.auth=required",
                "log.dirs=" + logs(),
                "num.partitions=3",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "") );
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private Path logs() {
        return dir.resolve("logs");
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The listener that wants SASL PLAIN ({@link #USER}, {@link #PASSWORD}). */
    public String saslBootstrapServers() {
        return "127.0.0.1:" + saslPort;
    }

    /** The listener that wants TLS: its certificate is issued by the authority in {@link #caFile}. */
    public String tlsBootstrapServers() {
        return "127.0.0.1:" + tlsPort;
    }

    /** The listener that wants TLS and a client certificate issued by the authority in {@link #caFile}. */
    public String mutualTlsBootstrapServers() {
        return "127.0.0.1:" + mutualTlsPort;
    }

    /** The listener that wants TLS, then SASL SCRAM-SHA-512 ({@link #USER}, {@link #PASSWORD}). */
    public String scramBootstrapServers() {
        return "127.0.0.1:" + scramPort;
    }

    /** PEM: the certificate of the authority that issued the broker's and the client's certificates. */
    public Path caFile() {
        return dir.resolve("ca.pem");
    }

    /** PEM: a client certificate (and its authority's) that the mutual TLS listener accepts. */
    public Path clientCertificateFile() {
        return dir.resolve("client.crt");
    }

    /** PEM: the unencrypted PKCS#8 key of {@link #clientCertificateFile}. */
    public Path clientKeyFile() {
        return dir.resolve("client.key");
    }

    /** Starts the broker (again) and returns once it answers on its port and lists its topics. */
    public void start() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), KafkaBrokerMain.class.getName(),
                dir.resolve("server.properties").toString(), clusterId, logs().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile()))
                .start();
        Process started = process;
        // a test JVM that is killed still takes its broker with it
        Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Kafka broker exited with " + process.exitValue() + ":\n" + tail());
            }
            return answers() && listsTopics();
        });
    }

    /** Stops the broker as its operator would (SIGTERM: a controlled shutdown) and waits for its exit. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    public void createTopic(String name, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000));
    }

    private boolean answers() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private boolean listsTopics() {
        try (Admin admin = admin()) {
            admin.listTopics().names().get(5, TimeUnit.SECONDS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("broker.log"));
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
