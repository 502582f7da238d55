package io.delayq.cli;

import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskOptions;
import io.delayq.task.TraceContext;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class EnqueueCommandTest {
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

    @Test
    void enqueuesAtAnInstantWithPayloadAndPriority_printingLocalAndUtcTime() {
        CliRun r = delayq("enqueue", "payout-W17", "--at", "2026-12-01T10:00:00Z", "--payload", "{\"amount\":17}", "--priority", "2");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("added payout-W17", "shard " + queue.shardOf("payout-W17"),
                "2026-12-01 11:00:00 CET", "2026-12-01T10:00:00Z");
        TaskInfo info = queue.client().inspect("payout-W17");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.score()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());
        assertThat(info.priority()).isEqualTo(2);
        assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("{\"amount\":17}");
    }

    @Test
    void aPastInstantIsTakenAsDueNowWithANoticeOnStderr() throws Exception {
        CliRun r = delayq("enqueue", "typo-1", "--at", "2020-01-01T00:00:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("added typo-1", "2020-01-01T00:00:00Z");
        assertThat(r.oneErrorLine()).as(r.toString()).isTrue();
        assertThat(r.err().strip()).startsWith("delayq enqueue: note: --at 2020-01-01T00:00:00Z is in the past (")
                .containsPattern("before the Redis time 20\\d\\d-[0-9T:.\\-]+Z\\): the task is due now and fires at once$");
        TaskInfo info = queue.client().inspect("typo-1");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.overdue()).as("due now").isTrue();
    }

    @Test
    void aFutureInstantOrADelayGivesNoNotice() {
        assertThat(delayq("enqueue", "later-1", "--at", "2099-01-01T00:00:00Z").err()).isEmpty();
        assertThat(delayq("enqueue", "now-1", "--delay", "0s").err()).isEmpty();
    }

    @Test
    void aPastInstantThatChangesNothingGivesNoNotice() {
        delayq("enqueue", "dup-1", "--delay", "1h");

        CliRun r = delayq("enqueue", "dup-1", "--at", "2020-01-01T00:00:00Z");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(r.out()).contains("duplicate dup-1");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void enqueuesAfterADelayMeasuredOnTheServerClock() throws Exception {
        long before = queue.serverNow();
        CliRun r = delayq("enqueue", "order-8812", "--delay", "30m");
        long after = queue.serverNow();

        assertThat(r.exitCode()).as(r.toString()).isZero();
        long due = queue.client().inspect("order-8812").score();
        assertThat(due).isBetween(before + Duration.ofMinutes(30).toMillis(), after + Duration.ofMinutes(30).toMillis());
    }

    @Test
    void readsThePayloadFromAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("payload.json");
        Files.writeString(file, "{\"action\":\"cancel-if-unpaid\",\"note\":\"é\"}\n", StandardCharsets.UTF_8);

        CliRun r = delayq("enqueue", "order-1", "--delay", "1h", "--payload-file", file.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(TaskRecord.decode(queue.client().inspect("order-1").rawRecord()).payload())
                .isEqualTo("{\"action\":\"cancel-if-unpaid\",\"note\":\"é\"}\n");
    }

    @Test
    void duplicateIdChangesNothingAndExitsOne_replaceAndKeepEarlierDoTheirJob() {
        assertThat(delayq("enqueue", "order-1", "--at", "2026-12-01T10:00:00Z", "--payload", "first").exitCode()).isZero();

        CliRun dup = delayq("enqueue", "order-1", "--at", "2026-11-01T10:00:00Z", "--payload", "second");
        assertThat(dup.exitCode()).as(dup.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(dup.out()).contains("duplicate order-1", "2026-12-01T10:00:00Z", "nothing changed");
        assertThat(TaskRecord.decode(queue.client().inspect("order-1").rawRecord()).payload()).isEqualTo("first");

        CliRun later = delayq("enqueue", "order-1", "--at", "2026-12-05T10:00:00Z", "--on-duplicate", "keep-earlier");
        assertThat(later.exitCode()).as(later.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(later.out()).contains("kept order-1");

        CliRun earlier = delayq("enqueue", "order-1", "--at", "2026-11-20T10:00:00Z", "--on-duplicate", "keep-earlier");
        assertThat(earlier.exitCode()).as(earlier.toString()).isZero();
        assertThat(queue.client().inspect("order-1").score()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z").toEpochMilli());

        CliRun replace = delayq("enqueue", "order-1", "--at", "2026-12-24T18:00:00Z", "--payload", "third", "--on-duplicate", "replace");
        assertThat(replace.exitCode()).as(replace.toString()).isZero();
        assertThat(replace.out()).contains("replaced order-1");
        assertThat(TaskRecord.decode(queue.client().inspect("order-1").rawRecord()).payload()).isEqualTo("third");
    }

    @Test
    void aDedupWindowRefusesTheIdAfterItsTaskIsGone_andDebounceCapsTheDueTime() {
        assertThat(delayq("enqueue", "mail-1", "--delay", "1h", "--dedup-window", "10m").exitCode()).isZero();
        assertThat(queue.client().cancel("mail-1")).isEqualTo(io.delayq.task.CancelResult.CANCELLED);
        CliRun refused = delayq("enqueue", "mail-1", "--delay", "1h", "--on-duplicate", "replace");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(refused.out()).contains("not added mail-1", "dedup window runs until", "nothing changed");

        CliRun first = delayq("enqueue", "sync-1", "--delay", "1m", "--payload", "v1", "--debounce-max-wait", "5m");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        long firstDue = queue.client().inspect("sync-1").score();
        CliRun pushed = delayq("enqueue", "sync-1", "--delay", "1h", "--payload", "v2", "--debounce-max-wait", "5m");
        assertThat(pushed.exitCode()).as(pushed.toString()).isZero();
        assertThat(pushed.out()).contains("replaced sync-1");
        assertThat(queue.client().inspect("sync-1").score()).isBetween(firstDue, firstDue + Duration.ofMinutes(4).toMillis() + 1000);

        CliRun zero = delayq("enqueue", "x", "--delay", "1s", "--dedup-window", "0s");
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.err()).contains("dedupWindowMs", "must be 1 to");
    }

    @Test
    void invalidDurationInstantPriorityAndPolicyAreUsageErrorsNamingTheOption() {
        CliRun delay = delayq("enqueue", "x", "--delay", "30 minutes");
        assertThat(delay.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(delay.oneErrorLine()).as(delay.toString()).isTrue();
        assertThat(delay.err()).contains("--delay", "'30 minutes' is not a duration", "30s");

        CliRun at = delayq("enqueue", "x", "--at", "2026-12-01 10:00");
        assertThat(at.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(at.oneErrorLine()).as(at.toString()).isTrue();
        assertThat(at.err()).contains("--at", "not an ISO-8601 instant");

        CliRun noZone = delayq("enqueue", "x", "--at", "2026-12-01T10:00:00");
        assertThat(noZone.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noZone.err()).contains("--at");

        CliRun priority = delayq("enqueue", "x", "--delay", "1s", "--priority", "7");
        assertThat(priority.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(priority.err()).contains("priority: must be 0 (normal), 1 (high) or 2 (highest), got 7");

        CliRun policy = delayq("enqueue", "x", "--delay", "1s", "--on-duplicate", "overwrite");
        assertThat(policy.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(policy.err()).contains("--on-duplicate", "reject, replace, keep-earlier");

        CliRun both = delayq("enqueue", "x", "--delay", "1s", "--at", "2026-12-01T10:00:00Z");
        assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("mutually exclusive");

        CliRun none = delayq("enqueue", "x");
        assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("--delay", "--at");

        CliRun longId = delayq("enqueue", "x".repeat(300), "--delay", "1s");
        assertThat(longId.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(longId.err()).contains("id: must be at most 256 bytes");

        CliRun file = delayq("enqueue", "x", "--delay", "1s", "--payload-file", "/no/such/file.json");
        assertThat(file.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(file.err()).contains("payload-file: no such file: /no/such/file.json");

        assertThat(queue.client().stats().scheduled() + queue.client().stats().due()).isZero();
    }

    @Test
    void creatingAQueueNeedsAShardCount_andAWrongCountIsRefused() {
        CliRun missing = CliRun.run("enqueue", "a", "--delay", "1s", "--redis", redis.url(), "--queue", "fresh");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("shards: queue 'fresh' does not exist in Redis yet", "--shards");

        CliRun created = CliRun.run("enqueue", "a", "--delay", "1s", "--redis", redis.url(), "--queue", "fresh", "--shards", "8");
        assertThat(created.exitCode()).as(created.toString()).isZero();

        CliRun wrong = CliRun.run("enqueue", "b", "--delay", "1s", "--redis", redis.url(), "--queue", "fresh", "--shards", "16");
        assertThat(wrong.exitCode()).isEqualTo(ExitCodes.REDIS);
        assertThat(wrong.oneErrorLine()).isTrue();
        assertThat(wrong.err()).contains("shards: queue 'fresh' has 8 shards in Redis", "--shards (or DELAYQ_SHARDS) says 16; leave it out");
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
    void storesTheGroupKeyAndRefusesABadOneNamingTheField() {
        CliRun r = delayq("enqueue", "mail-7", "--delay", "1h", "--group", "tenant-42");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(options("mail-7").group()).isEqualTo("tenant-42");

        CliRun bad = delayq("enqueue", "mail-8", "--delay", "1h", "--group", "tenant 42");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("group: may hold only ASCII letters, digits and - _ . : @ /, got ' ' at offset 6");
        CliRun both = delayq("enqueue", "mail-9", "--delay", "1h", "--group", "tenant-42", "--priority", "2");
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(both.err()).contains("group: cannot be combined with priority 2");
        assertThat(queue.client().inspect("mail-8").state()).isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
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
