package io.delayq.task;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Both stored forms of a record: compact (delayq's clients) and JSON (the v1 form foreign producers write). */
class TaskRecordTest {
    private static final long AT = 1_764_460_000_000L;

    @Test
    void aRecordWithPayloadAndEnqueueTimeIsStoredCompact() {
        assertThat(new TaskRecord("{\"order\":42}", AT, null).encode()).isEqualTo("0" + Long.toString(AT, 36) + ":{\"order\":42}");
        assertThat(new TaskRecord("p", AT, 2).encode()).startsWith("2").endsWith(":p");
        // 50 bytes of payload stay within Redis' 64-byte listpack value limit
        assertThat(new TaskRecord("x".repeat(50), AT, 1).encode()).hasSize(50 + 1 + 8 + 1);
    }

    @Test
    void compactRecordsRoundTripWhateverThePayloadHolds() {
        for (String payload : List.of("", "plain", "a:b:c", ":leading colon", "{\"at\":\"12:30\"}", "привет, мир — ünïcödé ✓ 注文",
                "two\nlines", "\"quoted\" \\ back", "0abc:def", "{not json")) {
            for (Integer priority : new Integer[] {null, 1, 2}) {
                TaskRecord r = new TaskRecord(payload, AT, priority);
                String stored = r.encode();
                assertThat(stored).as(payload).doesNotStartWith("{");
                assertThat(TaskRecord.decode(stored)).as(stored).isEqualTo(r);
            }
        }
    }

    @Test
    void priorityZeroAndAbsentAreTheSameLevel() {
        TaskRecord zero = TaskRecord.decode(new TaskRecord("p", AT, 0).encode());
        assertThat(zero.priorityLevel()).isZero();
        assertThat(zero.payload()).isEqualTo("p");
    }

    @Test
    void recordsWithoutPayloadOrEnqueueTimeFallBackToJsonAndRoundTrip() {
        for (TaskRecord r : List.of(new TaskRecord(null, AT, null), new TaskRecord(null, AT, 2), new TaskRecord("p: q", null, 1),
                new TaskRecord("ünï:cödé", null, null))) {
            String stored = r.encode();
            assertThat(stored).startsWith("{");
            assertThat(TaskRecord.decode(stored)).isEqualTo(r);
        }
        assertThat(TaskRecord.EMPTY.encode()).isEqualTo("{}");
    }

    @Test
    void handWrittenV1JsonRecordsAreRead() {
        assertThat(TaskRecord.decode("{\"payload\":\"cancel-if-unpaid\",\"enqueuedAt\":1764460000000,\"priority\":1}"))
                .isEqualTo(new TaskRecord("cancel-if-unpaid", AT, 1));
        assertThat(TaskRecord.decode("{\"payload\":\"a:b — ✓\",\"producer\":\"go-1.22\"}").payload()).isEqualTo("a:b — ✓");
        assertThat(TaskRecord.decode("{}")).isEqualTo(TaskRecord.EMPTY);
        assertThat(TaskRecord.decode(null)).isEqualTo(TaskRecord.EMPTY);
        assertThat(TaskRecord.decode("")).isEqualTo(TaskRecord.EMPTY);
    }

    @Test
    void anythingElseIsRefusedNamingTheRule() {
        assertThatThrownBy(() -> TaskRecord.decode("cancel order 12")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("must be JSON (starting with '{') or compact '<priority 0-2><enqueuedAt in base 36>:<payload>'")
                .hasMessageContaining("starts with 'c'");
        assertThatThrownBy(() -> TaskRecord.decode("3abc:p")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("starts with '3'");
        assertThatThrownBy(() -> TaskRecord.decode("0mijk2b3s")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("':' before the payload is missing");
        assertThatThrownBy(() -> TaskRecord.decode("0:p")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("enqueuedAt '' is not a base-36 number");
        assertThatThrownBy(() -> TaskRecord.decode("1zz#:p")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("enqueuedAt 'zz#'");
        assertThatThrownBy(() -> TaskRecord.decode("{payload: x")).isInstanceOf(TaskRecord.MalformedRecordException.class)
                .hasMessageContaining("not valid JSON");
    }

    @Test
    void recordsWithoutPayloadReadTheSameOnTheFastPathAsThroughTheParser() {
        for (Integer priority : new Integer[] {null, 1, 2}) {
            TaskRecord r = new TaskRecord(null, AT, priority);
            String stored = r.encode();
            assertThat(stored).startsWith("{\"enqueuedAt\":");
            assertThat(TaskRecord.decode(stored)).as(stored).isEqualTo(r);
            // the same record with a space the fast path does not accept goes through Jackson, to the same result
            assertThat(TaskRecord.decode(stored.replace(":", ": "))).as(stored).isEqualTo(r);
        }
        assertThat(TaskRecord.decode("{\"enqueuedAt\":0}")).isEqualTo(new TaskRecord(null, 0L, null));
        // near misses of the fast path keep the parser's verdicts
        assertThat(TaskRecord.decode("{\"enqueuedAt\":5,\"priority\":0}")).isEqualTo(new TaskRecord(null, 5L, null));
        assertThat(TaskRecord.decode("{\"enqueuedAt\":5,\"maxAttempts\":3}").options().maxAttempts()).isEqualTo(3);
        assertThatThrownBy(() -> TaskRecord.decode("{\"enqueuedAt\":012}")).isInstanceOf(TaskRecord.MalformedRecordException.class);
        assertThatThrownBy(() -> TaskRecord.decode("{\"enqueuedAt\":5,\"priority\":7}"))
                .isInstanceOf(TaskRecord.MalformedRecordException.class).hasMessageContaining("'priority' must be 0, 1 or 2");
        assertThatThrownBy(() -> TaskRecord.decode("{\"enqueuedAt\":5}}")).isInstanceOf(TaskRecord.MalformedRecordException.class);
    }
}
