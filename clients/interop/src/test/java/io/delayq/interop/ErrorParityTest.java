package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.DelayQueueException;
import io.delayq.InvalidInputException;
import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.op;
import static io.delayq.interop.Ops.task;
import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The error cases match across the three clients: the meta checks (shard count, protocol version) with
 * the same exception names and messages, and bad input with the same field and rule, nothing written.
 */
class ErrorParityTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static List<Producer> producers() {
        return Producer.all();
    }

    private DelayQueueClient.Builder java(String queue, int shards) {
        return DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(shards);
    }

    /** What the library answered when connecting: the error it raised. */
    private JsonNode connectError(Producer p, String queue, int shards, Map<String, Object> options) {
        try (ProducerProcess process = p.connect(redis.url(), queue, shards, options)) {
            assertThat(process.connectError()).as("%s refused to connect", p).isNotNull();
            return process.connectError();
        }
    }

    private static void sameError(JsonNode library, DelayQueueException java) {
        assertThat(library.get("type").asText()).isEqualTo(java.getClass().getSimpleName());
        assertThat(library.get("message").asText()).isEqualTo(java.getMessage());
        if (java instanceof InvalidInputException invalid) {
            assertThat(library.get("field").asText()).isEqualTo(invalid.field());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void aWrongShardCountFailsWithTheSameExceptionAndMessage(Producer p) {
        java("orders", 16).build().close();
        DelayQueueException java = catchThrowableOfType(DelayQueueException.class, () -> java("orders", 8).build());
        assertThat(java.getClass().getSimpleName()).isEqualTo("ShardCountMismatchException");
        sameError(connectError(p, "orders", 8, Map.of()), java);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void anotherProtocolVersionFailsWithTheSameExceptionAndMessage(Producer p) throws Exception {
        get(redis.admin().commands().hset("dq:{legacy}:meta", Map.of("shards", "4", "protocol", "1")));
        DelayQueueException java = catchThrowableOfType(DelayQueueException.class, () -> java("legacy", 4).build());
        assertThat(java.getClass().getSimpleName()).isEqualTo("ProtocolVersionMismatchException");
        sameError(connectError(p, "legacy", 4, Map.of()), java);
        assertThat(get(redis.admin().commands().hget("dq:{legacy}:meta", "protocol"))).isEqualTo("1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void badSettingsAreRefusedAlikeBeforeConnecting(Producer p) {
        String longName = "q".repeat(41);
        for (String queue : List.of("Orders_1", longName, "-orders")) {
            sameError(connectError(p, queue, 4, Map.of()), catchThrowableOfType(InvalidInputException.class, () -> java(queue, 4).build()));
        }
        for (int shards : List.of(0, 1025)) {
            sameError(connectError(p, "orders", shards, Map.of()),
                    catchThrowableOfType(InvalidInputException.class, () -> java("orders", shards).build()));
        }
        sameError(connectError(p, "orders", 4, Map.of("replicaAcks", 1, "replicaAckTimeoutMs", 10_000)),
                catchThrowableOfType(InvalidInputException.class, () -> java("orders", 4).replicaAcks(1, Duration.ofSeconds(10)).build()));
        sameError(connectError(p, "orders", 4, Map.of("maxPayloadBytes", 0)),
                catchThrowableOfType(InvalidInputException.class, () -> java("orders", 4).maxPayloadBytes(0)));
        assertThat(get(redis.admin().commands().keys("*"))).as("nothing written").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void badTasksAreRefusedAlikeAndABatchWithOneIsNotWrittenAtAll(Producer p) {
        try (DelayQueueClient java = java("orders", 4).maxPayloadBytes(16).build();
             ProducerProcess lib = p.connect(redis.url(), "orders", 4, Map.of("maxPayloadBytes", 16)).connected()) {
            String tooLong = "é".repeat(128) + "x";
            List<Object[]> cases = List.of(
                    new Object[]{task(""), (Runnable) () -> TaskSpec.of("")},
                    new Object[]{task(tooLong), (Runnable) () -> TaskSpec.of(tooLong)},
                    new Object[]{task("x", "priority", 3), (Runnable) () -> TaskSpec.of("x").priority(3)},
                    new Object[]{task("x", "payload", "ünïcödé ✓ 20 bytes"),
                            (Runnable) () -> java.enqueue(TaskSpec.of("x").payload("ünïcödé ✓ 20 bytes"))});
            for (Object[] c : cases) {
                @SuppressWarnings("unchecked")
                Map<String, Object> bad = (Map<String, Object>) c[0];
                JsonNode answer = lib.call(enqueue(task("good-1", "delayMs", 1000), bad, task("good-2")));
                assertThat(answer.get("error")).as("%s refused %s", p, bad).isNotNull();
                sameError(answer.get("error"), catchThrowableOfType(InvalidInputException.class, ((Runnable) c[1])::run));
            }
            // time values are printed in each language's own notation: the field and the rule are the same
            JsonNode delay = lib.call(enqueue(task("x", "delayMs", -1000))).get("error");
            InvalidInputException javaDelay = catchThrowableOfType(InvalidInputException.class, () -> TaskSpec.of("x").after(Duration.ofSeconds(-1)));
            assertThat(delay.get("field").asText()).isEqualTo(javaDelay.field()).isEqualTo("delay");
            assertThat(delay.get("message").asText()).startsWith("delay: must not be negative, got ");
            JsonNode dueAt = lib.call(enqueue(task("x", "dueAt", -1000))).get("error");
            InvalidInputException javaDueAt = catchThrowableOfType(InvalidInputException.class, () -> TaskSpec.of("x").at(Instant.ofEpochMilli(-1000)));
            assertThat(dueAt.get("field").asText()).isEqualTo(javaDueAt.field()).isEqualTo("dueAt");
            String rule = "dueAt: must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, got ";
            assertThat(javaDueAt.getMessage()).startsWith(rule);
            assertThat(dueAt.get("message").asText()).startsWith(rule);
            JsonNode policy = lib.call(enqueue("overwrite", List.of(task("x")))).get("error");
            assertThat(policy.get("field").asText()).isEqualTo("duplicatePolicy");

            JsonNode cancel = lib.call(op("cancel", "id", "")).get("error");
            sameError(cancel, catchThrowableOfType(InvalidInputException.class, () -> java.cancel("")));

            assertThat(java.stats().scheduled() + java.stats().due()).as("no task of a refused batch was written").isZero();
        }
    }
}
