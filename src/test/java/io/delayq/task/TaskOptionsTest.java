package io.delayq.task;

import io.delayq.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Per-task options: how they are stored, what the client refuses at enqueue, what the worker refuses in a stored record. */
class TaskOptionsTest {
    private static final long AT = 1_764_460_000_000L;
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aRecordWithOptionsIsJsonWithFlatFieldsAndReadsBackTheSame() {
        TaskSpec spec = TaskSpec.of("pay-1").at(Instant.ofEpochMilli(AT)).payload("capture").priority(1)
                .expiresAt(Instant.ofEpochMilli(AT + 3_600_000), ExpiryAction.DISCARD)
                .maxAttempts(10).backoff(Duration.ofSeconds(2), Duration.ofMinutes(10), 3.0)
                .traceContext(PARENT, "congo=t61rcWkgMzE");
        String stored = spec.record(AT - 5).encode();

        assertThat(stored).isEqualTo("{\"payload\":\"capture\",\"enqueuedAt\":" + (AT - 5) + ",\"priority\":1,\"expiresAt\":" + (AT + 3_600_000)
                + ",\"onExpiry\":\"discard\",\"maxAttempts\":10,\"backoffMs\":2000,\"backoffMaxMs\":600000,\"backoffMultiplier\":3,"
                + "\"traceparent\":\"" + PARENT + "\",\"tracestate\":\"congo=t61rcWkgMzE\"}");
        assertThat(TaskRecord.decode(stored)).isEqualTo(spec.record(AT - 5));
    }

    @Test
    void withoutOptionsTheCompactFormIsKept() {
        assertThat(TaskSpec.of("a").payload("p").record(AT).encode()).isEqualTo("0" + Long.toString(AT, 36) + ":p");
        assertThat(TaskRecord.decode("0" + Long.toString(AT, 36) + ":p").options()).isEqualTo(TaskOptions.NONE);
        assertThat(TaskRecord.decode("{\"payload\":\"p\"}").options().isEmpty()).isTrue();
    }

    @Test
    void theClientRefusesBadOptionsNamingTheFieldAndTheRule() {
        TaskSpec t = TaskSpec.of("t").at(Instant.ofEpochMilli(AT));
        assertRefused(() -> t.maxAttempts(0), "maxAttempts", "must be 1 to 1000, got 0");
        assertRefused(() -> t.maxAttempts(1001), "maxAttempts", "must be 1 to 1000");
        assertRefused(() -> t.backoff(Duration.ofSeconds(-1), Duration.ofSeconds(1), 2), "backoffMs", "must not be negative");
        assertRefused(() -> t.backoff(Duration.ofSeconds(10), Duration.ofSeconds(1), 2), "backoffMaxMs", "must not be below backoffMs (10000)");
        assertRefused(() -> t.backoff(Duration.ofSeconds(1), Duration.ofDays(31), 2), "backoffMaxMs", "30 days");
        assertRefused(() -> t.backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 0.5), "backoffMultiplier", "from 1 to 100");
        assertRefused(() -> t.backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), Double.NaN), "backoffMultiplier", "from 1 to 100");
        assertRefused(() -> t.expiresAt(Instant.ofEpochMilli(AT)), "expiresAt", "must be after the task's dueAt");
        assertRefused(() -> t.expiresAt(Instant.ofEpochSecond(1_764_460_000L / 1000)), "expiresAt", "between 2000-01-01 and 9999-12-31");
        assertRefused(() -> t.expiresAt(Instant.ofEpochMilli(AT + 1), null), "onExpiry", "must not be null");
        assertRefused(() -> t.traceContext("00-abc-def-01", null), "traceparent", "must be a W3C traceparent");
        assertRefused(() -> t.traceContext("00-00000000000000000000000000000000-00f067aa0ba902b7-01", null), "traceparent", "trace id must not be all zeros");
        assertRefused(() -> t.traceContext("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null), "traceparent", "version ff is invalid");
        assertRefused(() -> t.traceContext(PARENT.toUpperCase(), null), "traceparent", "in lower case");
        assertRefused(() -> t.traceContext(PARENT, "k=" + "v".repeat(600)), "tracestate", "at most 512 characters");
        assertRefused(() -> t.traceContext(PARENT, "k=\u00e9"), "tracestate", "printable ASCII");
    }

    @Test
    void anExpiryInThePastOrBeforeADelayedDueTimeIsRefusedAtEnqueue() {
        long now = System.currentTimeMillis();
        TaskSpec past = TaskSpec.of("c").expiresAt(Instant.ofEpochMilli(now - 1000));
        assertRefused(() -> past.requireNotExpired(now), "expiresAt", "must be after the task's due time (now + delay)");
        TaskSpec delayed = TaskSpec.of("c").after(Duration.ofHours(2)).expiresAt(Instant.ofEpochMilli(now + 3_600_000));
        assertRefused(() -> delayed.requireNotExpired(now), "expiresAt", "would expire before it could run");
        TaskSpec absolute = TaskSpec.of("c").at(Instant.ofEpochMilli(now - 10_000)).expiresAt(Instant.ofEpochMilli(now - 5_000));
        assertRefused(() -> absolute.requireNotExpired(now), "expiresAt", "is in the past");
        TaskSpec.of("c").after(Duration.ofMinutes(1)).expiresAt(Instant.ofEpochMilli(now + 3_600_000)).requireNotExpired(now);
    }

    @Test
    void aStoredRecordWithABadControlIsMalformedNamingTheField() {
        assertMalformed("{\"maxAttempts\":0}", "task record field 'maxAttempts' must be 1 to 1000, got 0");
        assertMalformed("{\"maxAttempts\":\"ten\"}", "task record field 'maxAttempts' must be a whole number (a JSON number), got a string \"ten\"");
        assertMalformed("{\"expiresAt\":1764460000}", "task record field 'expiresAt' must be epoch milliseconds between 2000-01-01 and 9999-12-31");
        assertMalformed("{\"expiresAt\":true}", "task record field 'expiresAt' must be epoch milliseconds (a JSON number), got a boolean true");
        assertMalformed("{\"onExpiry\":\"drop\"}", "task record field 'onExpiry' must be \"dead-letter\" or \"discard\", got a string \"drop\"");
        assertMalformed("{\"backoffMs\":-5}", "task record field 'backoffMs' must be 0 to 2592000000 ms (30 days), got -5");
        assertMalformed("{\"backoffMs\":5000,\"backoffMaxMs\":10}", "task record field 'backoffMaxMs' must not be below backoffMs (5000), got 10");
        assertMalformed("{\"backoffMultiplier\":\"2\"}", "task record field 'backoffMultiplier' must be a number from 1 to 100, got a string \"2\"");
        assertMalformed("{\"backoffMultiplier\":1000}", "task record field 'backoffMultiplier' must be a number from 1 to 100, got 1000.0");
    }

    @Test
    void aStoredRecordReadsHandWrittenForms() {
        TaskOptions o = TaskRecord.decode("{\"payload\":\"x\",\"maxAttempts\":\"3\",\"expiresAt\":\"1764463600000\",\"backoffMs\":250.7}").options();
        assertThat(o.maxAttempts()).isEqualTo(3);
        assertThat(o.expiresAt()).isEqualTo(1_764_463_600_000L);
        assertThat(o.backoffMs()).isEqualTo(250L);
        assertThat(o.expiryAction()).isEqualTo(ExpiryAction.DEAD_LETTER);
    }

    @Test
    void aBadTraceContextInAStoredRecordIsDroppedNotFatal() {
        TaskRecord r = TaskRecord.decode("{\"payload\":\"x\",\"traceparent\":\"garbage\",\"tracestate\":\"a=b\"}");
        assertThat(r.payload()).isEqualTo("x");
        assertThat(r.options().trace()).isNull();
        TaskRecord kept = TaskRecord.decode("{\"traceparent\":\"" + PARENT + "\",\"tracestate\":7}");
        assertThat(kept.options().trace()).isEqualTo(new TraceContext(PARENT, null));
    }

    private static void assertRefused(Runnable r, String field, String rule) {
        assertThatThrownBy(r::run).isInstanceOfSatisfying(InvalidInputException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).startsWith(field + ": ").contains(rule);
        });
    }

    private static void assertMalformed(String stored, String message) {
        assertThatThrownBy(() -> TaskRecord.decode(stored)).isInstanceOf(TaskRecord.MalformedRecordException.class).hasMessageStartingWith(message);
    }
}
