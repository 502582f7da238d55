package io.delayq.app.worker;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.config.CapturedStderr;
import io.delayq.worker.config.EnvChanges;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code WorkerCommand.run(env)}: a configuration error exits 2 with one line naming the variable and the rule. */
class WorkerCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final CapturedStderr err = new CapturedStderr();

    private List<String> errLines() {
        return err.lines();
    }

    private Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_REDIS_URL", redis.url());
        env.put("DELAYQ_QUEUE", "cmd");
        env.put("DELAYQ_SHARDS", "2");
        env.put("DELAYQ_HTTP_PORT", "0");
        return EnvChanges.apply(env, pairs);
    }

    @Test
    void aBadValueExitsTwoWithOneLine() {
        assertThat(WorkerCommand.run(env("DELAYQ_BATCH_SIZE", "ten"))).isEqualTo(2);
        assertThat(errLines()).containsExactly("delayq worker: invalid configuration: DELAYQ_BATCH_SIZE: must be a whole number, got 'ten'");
    }

    @Test
    void aMissingRequiredVariableExitsTwoWithOneLine() {
        assertThat(WorkerCommand.run(env("DELAYQ_REDIS_URL", null))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_REDIS_URL: is required");
    }

    @Test
    void aRedisUrlThatIsNoRedisUrlExitsTwoNamingTheVariable() {
        assertThat(WorkerCommand.run(env("DELAYQ_REDIS_URL", "http://redis:6379"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_REDIS_URL: ");
    }

    @Test
    void aBadOutboxVariableExitsTwoNamingIt() {
        assertThat(WorkerCommand.run(env("DELAYQ_OUTBOX_URL", "postgres://db/shop"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_OUTBOX_URL: must be a PostgreSQL JDBC URL");
    }

    @Test
    void anOutboxBatchSizeOutOfBoundsExitsTwoNamingIt() {
        assertThat(WorkerCommand.run(env("DELAYQ_OUTBOX_URL", "jdbc:postgresql://db/shop", "DELAYQ_OUTBOX_BATCH_SIZE", "0"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_OUTBOX_BATCH_SIZE: ");
    }

    @Test
    void aBadClockSkewExitsTwo() {
        assertThat(WorkerCommand.run(env("DELAYQ_CLOCK_SKEW", "an hour"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString().contains("DELAYQ_CLOCK_SKEW");
    }

    @Test
    void handlerDeliveryWithoutAHandlerOnTheClasspathExitsTwo() {
        assertThat(WorkerCommand.run(env("DELAYQ_DELIVERY", "handler"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on the classpath");
    }

    @Test
    void theKafkaDeliveryIsOnTheExecutablesClassPath() {
        // found through its DeliveryProvider service: its own settings are checked, not refused as an unknown delivery
        assertThat(WorkerCommand.run(env("DELAYQ_DELIVERY", "kafka"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_KAFKA_BOOTSTRAP_SERVERS: is required when DELAYQ_DELIVERY=kafka");
    }

    @Test
    void aHandlerNameThatIsNotOnTheClasspathExitsTwo() {
        assertThat(WorkerCommand.run(env("DELAYQ_HANDLER", "com.example.MissingHandler"))).isEqualTo(2);
        assertThat(errLines()).singleElement().asString()
                .startsWith("delayq worker: invalid configuration: DELAYQ_HANDLER: names no TaskHandler on the classpath: com.example.MissingHandler");
    }

    @Test
    void anHttpPortInUseExitsThreeWithOneLineNamingTheVariable() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            int port = taken.getLocalPort();
            assertThat(WorkerCommand.run(env("DELAYQ_HTTP_PORT", String.valueOf(port),
                    "DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "http://127.0.0.1:9/tasks"))).isEqualTo(3);
            assertThat(errLines()).filteredOn(l -> l.startsWith("delayq worker:")).singleElement().asString()
                    .startsWith("delayq worker: cannot start: cannot listen on DELAYQ_HTTP_PORT " + port);
            assertThat(errLines()).noneMatch(l -> l.startsWith("\tat "));
        }
    }

    @Test
    void anUnreachableRedisExitsThree() {
        int nobody = LocalRedisServer.freePort();
        // webhook delivery: a missing handler is a configuration error (exit 2) found before Redis is tried
        assertThat(WorkerCommand.run(env("DELAYQ_REDIS_URL", "redis://127.0.0.1:" + nobody,
                "DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "http://127.0.0.1:9/tasks"))).isEqualTo(3);
        assertThat(errLines()).anySatisfy(l -> assertThat(l).startsWith("delayq worker: cannot start: "));
    }

    @Test
    void theWorkerCommandExitsTwoWithOneLineWhenTheOtlpProtocolIsGrpc() {
        Map<String, String> env = env();
        env.put("OTEL_TRACES_EXPORTER", "otlp");
        env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc");
        assertThat(WorkerCommand.run(env)).isEqualTo(2);
        assertThat(errLines()).containsExactly("delayq worker: invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL: "
                + "must be http/protobuf (this worker ships no gRPC sender), got 'grpc'");
    }
}
