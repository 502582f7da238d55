package io.delayq.client;

import io.delayq.InvalidInputException;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.shard.ShardKeys;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad input fails before anything is sent, with an exception naming the field and the rule. */
class InputValidationTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private TestQueue q;
    private DelayQueueClient client;

    @BeforeEach
    void open() {
        q = TestQueue.open(redis.url(), "orders", 4);
        client = q.client();
    }

    @AfterEach
    void close() {
        q.close();
    }

    private void rejected(String field, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith(field + ": ")
                .satisfies(e -> assertThat(((InvalidInputException) e).field()).isEqualTo(field));
        // only the meta hash that building the client recorded: nothing was written
        assertThat(q.allKeys()).containsExactly(ShardKeys.meta("orders"));
    }

    @Test
    void emptyId() {
        rejected("id", () -> client.enqueue(TaskSpec.of("")));
        rejected("id", () -> client.enqueue(TaskSpec.of(null)));
        rejected("id", () -> client.cancel(""));
        rejected("id", () -> client.inspect(""));
        rejected("id", () -> client.reschedule("", Duration.ofSeconds(1)));
        rejected("id", () -> client.replayDead(List.of("")));
        rejected("id", () -> client.purgeDead(List.of("ok", "")));
        assertThatThrownBy(() -> TaskSpec.of("")).hasMessage("id: must not be empty");
    }

    @Test
    void idOver256BytesOfUtf8() {
        String twoByteChars = "é".repeat(128);            // 256 bytes, 128 characters
        String over = twoByteChars + "a";                  // 257 bytes
        assertThatThrownBy(() -> TaskSpec.of(over)).isInstanceOf(InvalidInputException.class)
                .hasMessage("id: must be at most 256 bytes of UTF-8, got 257");
        rejected("id", () -> client.inspect(over));
        rejected("id", () -> client.cancel("x".repeat(257)));
        rejected("id", () -> client.replayDead(List.of(over)));
        // 256 bytes is the limit, not 256 characters
        assertThat(client.enqueue(TaskSpec.of(twoByteChars)).added()).isTrue();
        assertThat(client.inspect(twoByteChars).state()).isEqualTo(io.delayq.task.TaskInfo.State.SCHEDULED);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Orders", "-orders", "orders-", "or_ders", "or.ders", "or:ders", "{orders}", "or ders",
            "a23456789012345678901234567890123456789012"})
    void invalidQueueName(String name) {
        assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue(name).shards(4).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("queue: ");
        assertThat(q.allKeys()).containsExactly(ShardKeys.meta("orders"));
    }

    @Test
    void queueNameOf40CharactersIsAccepted() {
        String name = "a".repeat(40);
        try (DelayQueueClient c = DelayQueueClient.builder().redis(redis.url()).queue(name).shards(1).build()) {
            assertThat(c.async().queue()).isEqualTo(name);
        }
    }

    @Test
    void badQueueIsReportedEvenWhenRedisIsUnreachable() {
        // validation comes before the connection: the caller learns about the typo, not a connect error
        String nowhere = "redis://127.0.0.1:" + LocalRedisServer.freePort();
        assertThatThrownBy(() -> DelayQueueClient.builder().redis(nowhere).queue("Bad_Name").shards(4).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("queue: ");
        assertThatThrownBy(() -> DelayQueueClient.builder().redis(nowhere).queue("ok").shards(0).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("shards: ");
        assertThatThrownBy(() -> DelayQueueClient.builder().queue("ok").shards(1).build())
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("redis: ");
    }

    @Test
    void shardCountOutOfRange() {
        for (int shards : new int[] {0, -3, 1025}) {
            assertThatThrownBy(() -> DelayQueueClient.builder().redis(redis.url()).queue("other").shards(shards).build())
                    .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("shards: must be between 1 and 1024");
        }
        assertThat(q.allKeys()).containsExactly(ShardKeys.meta("orders"));
    }

    @Test
    void negativeDelay() {
        rejected("delay", () -> client.enqueue(TaskSpec.of("a").after(Duration.ofMillis(-1))));
        rejected("delay", () -> client.reschedule("a", Duration.ofSeconds(-5)));
        rejected("delay", () -> client.enqueue(TaskSpec.of("a").after(null)));
    }

    @Test
    void dueTimeOutOfRange() {
        rejected("dueAt", () -> client.enqueue(TaskSpec.of("a").at(Instant.ofEpochMilli(-1))));
        rejected("dueAt", () -> client.enqueue(TaskSpec.of("a").at(Instant.parse("+10000-01-01T00:00:00Z"))));
        rejected("dueAt", () -> client.enqueue(TaskSpec.of("a").at(Instant.MAX)));
        rejected("dueAt", () -> client.reschedule("a", (Instant) null));
        // a delay that would put the due time past year 9999
        rejected("delay", () -> client.enqueue(TaskSpec.of("a").after(Duration.ofDays(3_000_000))));
        rejected("delay", () -> client.enqueue(TaskSpec.of("a").after(Duration.ofSeconds(Long.MAX_VALUE))));
        // both ends of the range are fine
        assertThat(client.enqueue(TaskSpec.of("epoch").at(Instant.EPOCH)).added()).isTrue();
        assertThat(client.enqueue(TaskSpec.of("y9999").at(Instant.parse("9999-12-31T23:59:59.999Z"))).dueAt())
                .isEqualTo(253_402_300_799_999L);
    }

    @Test
    void payloadOverTheConfiguredLimit() {
        try (DelayQueueClient small = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4)
                .maxPayloadBytes(10).build()) {
            rejected("payload", () -> small.enqueue(TaskSpec.of("a").payload("12345678901")));
            rejected("payload", () -> small.enqueue(TaskSpec.of("a").payload("ééééé1")));      // 11 bytes, 6 chars
            // one bad task in a batch: the good ones are not written either
            rejected("payload", () -> small.enqueueAll(List.of(TaskSpec.of("good-1").payload("ok"),
                    TaskSpec.of("bad").payload("x".repeat(11)), TaskSpec.of("good-2"))));
            rejected("payload", () -> small.async().enqueueAll(List.of(TaskSpec.of("bad").payload("x".repeat(11))),
                    DuplicatePolicy.REPLACE));
            assertThat(small.enqueue(TaskSpec.of("a").payload("1234567890")).added()).isTrue();
        }
        assertThatThrownBy(() -> DelayQueueClient.builder().maxPayloadBytes(0))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("maxPayloadBytes: ");
    }

    @Test
    void defaultPayloadLimitIs64KiB() {
        rejected("payload", () -> client.enqueue(TaskSpec.of("a").payload("x".repeat(64 * 1024 + 1))));
        assertThat(client.enqueue(TaskSpec.of("a").payload("x".repeat(64 * 1024))).added()).isTrue();
    }

    @Test
    void priorityOutOfRange() {
        rejected("priority", () -> client.enqueue(TaskSpec.of("a").priority(3)));
        rejected("priority", () -> client.enqueue(TaskSpec.of("a").priority(-1)));
    }

    @Test
    void otherArguments() {
        rejected("duplicatePolicy", () -> client.enqueueAll(List.of(TaskSpec.of("a")), null));
        rejected("shard", () -> client.deadLetters(4, 0, 10));
        rejected("offset", () -> client.deadLetters(0, -1, 10));
        rejected("limit", () -> client.deadLetters(0, 0, 0));
        rejected("limit", () -> client.deadLetters(0, 0, 10_001));
        assertThatThrownBy(() -> DelayQueueClient.builder().timeout(Duration.ZERO)).hasMessageStartingWith("timeout: ");
    }
}
