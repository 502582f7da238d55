package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;

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
}
