package io.delayq.task;

import io.delayq.testing.NewQueuesOnProtocol3;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records on a queue recorded as protocol 3: a task's record is its bucket's value (after the due time's offset), not
 * an entry of protocol 2's record hashes, which hold only what a seed producer or protocol 2 wrote until adopted.
 */
class RecordStorageOnProtocol3Test extends RecordStorageTest {
    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    /** The buckets waiting or in flight, the id index, the dead letters' records and errors, and protocol 2's record hashes. */
    @Override
    List<String> storedRecordKeys() {
        List<String> keys = new ArrayList<>(q.allKeys().stream()
                .filter(k -> k.matches("dq:\\{orders:\\d+}:(b:.*|f:.*|ix:\\d+|dv|err)")).toList());
        keys.addAll(q.recordHashes());
        return keys;
    }

    @Override
    @Test
    @Disabled("protocol 2's record hashes: protocol 3 keeps a task's record in its bucket's value")
    void luaAndJavaPutEveryIdInTheSameBucket() {
    }

    @Override
    @Test
    @Disabled("protocol 2's record hashes: protocol 3 keeps a task's record in its bucket's value")
    void everyRecordLandsInTheBucketJavaComputes() {
    }

    /** A bucket's values stay within the listpack's 64 bytes with a 50-byte payload (docs/protocol3.md, Measured). */
    @Override
    @Test
    @DisplayName("on protocol 3 the buckets of 50-byte payloads stay compactly encoded")
    void bucketsOfFiftyBytePayloadsStayCompactlyEncoded() {
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1));
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            tasks.add(TaskSpec.of(String.format("t%09d", i)).at(tomorrow).payload("x".repeat(50)));
        }
        q.client().enqueueAll(tasks);
        List<String> buckets = q.allKeys().stream().filter(k -> k.matches("dq:\\{orders:\\d+}:b:.*")).toList();
        assertThat(buckets).as("250 tasks a bucket").hasSizeGreaterThanOrEqualTo(20_000 / 250);
        for (String bucket : buckets) {
            // "listpack" since Redis 7.0; Redis 6.2 names the same compact encoding "ziplist"
            assertThat(get(q.redis().objectEncoding(bucket))).as(bucket).isIn("listpack", "ziplist");
        }
    }
}
