package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.Sharding;
import io.delayq.InvalidInputException;
import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskRecord;
import io.delayq.task.TraceContext;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code clients/protocol-vectors.json} is the shard math and record encoding every producer must
 * reproduce; the Python and Node unit tests check their libraries against it, and this test checks it
 * against core's own code, so all three agree with core (a hand-written Go producer can use it too).
 */
class ProtocolVectorsTest {
    private static JsonNode vectors() throws IOException {
        return ProducerProcess.JSON.readTree(Producer.clientsDir().resolve("protocol-vectors.json").toFile());
    }

    @Test
    void shardsAndBucketsAreCoresOwn() throws IOException {
        JsonNode ids = vectors().get("ids");
        assertThat(ids.size()).isGreaterThan(5);
        for (JsonNode v : ids) {
            String id = v.get("id").asText();
            CRC32 crc = new CRC32();
            crc.update(id.getBytes(StandardCharsets.UTF_8));
            assertThat(v.get("crc32").asLong()).as("crc32 of %s", id).isEqualTo(crc.getValue());
            assertThat(v.get("bucket").asInt()).as("bucket of %s", id).isEqualTo(RecordBuckets.bucketOf(id));
            v.get("shardOf").fields().forEachRemaining(e ->
                    assertThat(e.getValue().asInt()).as("shard of %s among %s", id, e.getKey())
                            .isEqualTo(Sharding.shardOf(id, Integer.parseInt(e.getKey()))));
        }
    }

    @Test
    void recordsAreEncodedAsCoreEncodesThem() throws IOException {
        for (JsonNode v : vectors().get("records")) {
            String payload = v.get("payload").isNull() ? null : v.get("payload").asText();
            int priority = v.get("priority").asInt();
            TaskRecord record = new TaskRecord(payload, v.get("enqueuedAt").asLong(), priority == 0 ? null : priority);
            assertThat(record.encode()).isEqualTo(v.get("encoded").asText());
            TaskRecord decoded = TaskRecord.decode(v.get("encoded").asText());
            assertThat(decoded.payload()).isEqualTo(payload);
            assertThat(decoded.priorityLevel()).isEqualTo(priority);
            assertThat(decoded.enqueuedAt()).isEqualTo(v.get("enqueuedAt").asLong());
        }
    }

    @Test
    void recordsWithOptionsAreEncodedAsCoreEncodesThem() throws IOException {
        JsonNode all = vectors().get("recordsWithOptions");
        assertThat(all.size()).isGreaterThan(2);
        for (JsonNode v : all) {
            JsonNode t = v.get("task");
            int priority = t.get("priority").asInt();
            TaskRecord record = new TaskRecord(t.get("payload").isNull() ? null : t.get("payload").asText(), t.get("enqueuedAt").asLong(),
                    priority == 0 ? null : priority, options(t));
            assertThat(record.encode()).isEqualTo(v.get("encoded").asText());
            assertThat(TaskRecord.decode(v.get("encoded").asText())).isEqualTo(record);
        }
    }

    @Test
    void invalidOptionsAreRefusedWithCoresMessages() throws IOException {
        for (JsonNode v : vectors().get("invalidOptions")) {
            assertThatThrownBy(() -> options(v.get("options"))).as(v.get("options").toString())
                    .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                        assertThat(e.field()).isEqualTo(v.get("field").asText());
                        assertThat(e.getMessage()).isEqualTo(v.get("message").asText());
                    });
        }
    }

    /** The vector's option fields as core's TaskOptions (the record's field names). */
    private static TaskOptions options(JsonNode t) {
        TraceContext trace = t.has("traceparent") || t.has("tracestate")
                ? new TraceContext(text(t, "traceparent"), text(t, "tracestate")) : null;
        return new TaskOptions(t.has("expiresAt") ? t.get("expiresAt").asLong() : null,
                t.has("onExpiry") ? ExpiryAction.fromWire(t.get("onExpiry").asText()) : null,
                t.has("maxAttempts") ? t.get("maxAttempts").asInt() : null,
                t.has("backoffMs") ? t.get("backoffMs").asLong() : null,
                t.has("backoffMaxMs") ? t.get("backoffMaxMs").asLong() : null,
                t.has("backoffMultiplier") ? t.get("backoffMultiplier").asDouble() : null, trace, null,
                t.has("dedupWindowMs") ? t.get("dedupWindowMs").asLong() : null,
                t.has("debounceMaxWaitMs") ? t.get("debounceMaxWaitMs").asLong() : null, null);
    }

    private static String text(JsonNode t, String field) {
        return t.has(field) ? t.get(field).asText() : null;
    }
}
