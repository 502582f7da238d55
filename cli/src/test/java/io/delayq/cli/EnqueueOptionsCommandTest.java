package io.delayq.cli;

import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskOptions;
import io.delayq.task.TaskRecord;
import io.delayq.task.TraceContext;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code delayq enqueue} with per-task expiry, retry overrides and trace context. */
class EnqueueOptionsCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(new String[]{"--redis", redis.url(), "--queue", "orders"}, 0, all, args.length, 4);
        return CliRun.run(all);
    }

    private TaskOptions options(String id) {
        return TaskRecord.decode(queue.client().inspect(id).rawRecord()).options();
    }

    @Test
    void storesExpiryRetryOverridesAndTraceContextInTheRecord() {
        String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        CliRun r = delayq("enqueue", "capture-P1", "--at", "2027-12-01T10:00:00Z", "--payload", "{}",
                "--expires-at", "2027-12-01T11:00:00Z", "--on-expiry", "discard", "--max-attempts", "10",
                "--backoff", "2s", "--backoff-max", "10m", "--backoff-multiplier", "3", "--traceparent", parent);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(options("capture-P1")).isEqualTo(new TaskOptions(Instant.parse("2027-12-01T11:00:00Z").toEpochMilli(),
                ExpiryAction.DISCARD, 10, 2_000L, 600_000L, 3.0, new TraceContext(parent, null)));
    }

    @Test
    void expiresInIsMeasuredFromNowAndOnlyTheGivenOverridesAreStored() {
        long before = System.currentTimeMillis();
        CliRun r = delayq("enqueue", "coupon-C10", "--delay", "1h", "--expires-in", "2h", "--max-attempts", "2");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        TaskOptions o = options("coupon-C10");
        assertThat(o.expiresAt()).isBetween(before + 7_200_000, System.currentTimeMillis() + 7_200_000);
        assertThat(o.expiryAction()).isEqualTo(ExpiryAction.DEAD_LETTER);
        assertThat(o.maxAttempts()).isEqualTo(2);
        assertThat(o.backoffMs()).isNull();
    }

    @Test
    void badOptionsAreUsageErrorsNamingTheFieldAndNothingIsWritten() {
        expectUsage("maxAttempts: must be 1 to 1000, got 0", "--delay", "0s", "--max-attempts", "0");
        expectUsage("onExpiry: must be \"dead-letter\" or \"discard\", got \"drop\"", "--delay", "0s", "--expires-in", "1h", "--on-expiry", "drop");
        expectUsage("onExpiry: needs --expires-at or --expires-in", "--delay", "0s", "--on-expiry", "discard");
        expectUsage("expiresAt: must be after the task's due time (now + delay)", "--delay", "2h", "--expires-in", "1h");
        expectUsage("expiresAt: must be after the task's dueAt", "--at", "2027-12-01T10:00:00Z", "--expires-at", "2027-12-01T09:00:00Z");
        expectUsage("backoffMaxMs: must not be below backoffMs (60000), got 1000", "--delay", "0s", "--backoff", "1m", "--backoff-max", "1s");
        expectUsage("backoffMultiplier: must be a number from 1 to 100, got 0.5", "--delay", "0s", "--backoff-multiplier", "0.5");
        expectUsage("traceparent: must be a W3C traceparent", "--delay", "0s", "--traceparent", "abc");
        expectUsage("tracestate: needs --traceparent", "--delay", "0s", "--tracestate", "a=b");
        assertThat(queue.client().stats().scheduled()).isZero();
    }

    private void expectUsage(String message, String... options) {
        String[] args = new String[options.length + 2];
        args[0] = "enqueue";
        args[1] = "t-1";
        System.arraycopy(options, 0, args, 2, options.length);
        CliRun r = delayq(args);
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).as(String.join(" ", options)).contains(message);
    }
}
