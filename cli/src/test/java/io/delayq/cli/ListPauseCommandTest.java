package io.delayq.cli;

import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code delayq list}, {@code delayq pause}, {@code delayq resume} against a real Redis. */
class ListPauseCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders", "USER", "alice"), args);
    }

    @Test
    void listPrintsScheduledTasksInDueOrderAndTheNextCursor() {
        for (int i = 0; i < 5; i++) {
            queue.schedule("order-" + i, Duration.ofMinutes(10 + i), "payload-" + i);
        }
        queue.schedule("coupon-1", Duration.ofMinutes(30), "c");

        CliRun first = delayq("list", "scheduled", "--prefix", "order-", "--limit", "3");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).containsSubsequence("order-0", "order-1", "order-2").doesNotContain("order-3").doesNotContain("coupon-1");
        assertThat(first.out()).contains("payload-0").contains("3 shown; 6 scheduled in queue 'orders' (before the prefix filter)");
        String cursor = first.out().lines().filter(l -> l.startsWith("next: --cursor ")).findFirst().orElseThrow().substring(15);

        CliRun second = delayq("list", "scheduled", "--prefix", "order-", "--limit", "3", "--cursor", cursor);
        assertThat(second.out()).containsSubsequence("order-3", "order-4").doesNotContain("order-2").doesNotContain("next:");
    }

    @Test
    void hostileIdsPayloadsAndErrorsCannotDriveTheTerminal() {
        // clear screen, set the window title, an 8-bit CSI and a right-to-left override
        String id = "evil-\u001b[2J\u001b]0;pwned\u0007-\u009b31m-\u202e";
        queue.schedule(id, Duration.ofMinutes(5), "pay\u001b[31mred\u007f");
        queue.dead("HTTP 500\u001b[1A\u001b[K", "dead-\u001bx");

        CliRun scheduled = delayq("list", "scheduled");
        CliRun dead = delayq("list", "dead");
        CliRun json = delayq("list", "scheduled", "--output", "json");

        for (CliRun r : java.util.List.of(scheduled, dead, json)) {
            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out().chars().filter(c -> Character.isISOControl(c) && c != '\n' || c == 0x202e).count())
                    .as("control characters printed: %s", r.out()).isZero();
        }
        assertThat(scheduled.out()).contains("evil-\\x1b[2J\\x1b]0;pwned\\x07-\\x9b31m-\\u202e").contains("pay\\x1b[31mred\\x7f");
        assertThat(dead.out()).contains("dead-\\x1bx").contains("HTTP 500\\x1b[1A\\x1b[K");
        // JSON keeps the exact strings (escaped the JSON way), so jq still gives back the stored id
        assertThat(json.out()).containsIgnoringCase("evil-\\u001b[2J");
        assertThat(queue.client().inspect(id).state()).isNotEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
    }

    @Test
    void aMalformedCursorOrAnUnknownStateIsAUsageErrorOfOneLine() {
        CliRun bad = delayq("list", "due", "--cursor", "zzz");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.oneErrorLine()).as(bad.toString()).isTrue();
        assertThat(bad.err()).contains("cursor: is not a cursor");
        CliRun state = delayq("list", "waiting");
        assertThat(state.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(state.err()).contains("state: must be one of scheduled, due, inflight, dead");
        CliRun limit = delayq("list", "due", "--limit", "100000");
        assertThat(limit.err()).contains("limit: must be between 1 and 500");
    }

    @Test
    void pauseAndResumeSetTheFlagsAndRecordWho() {
        CliRun p = delayq("pause");
        assertThat(p.exitCode()).as(p.toString()).isZero();
        assertThat(p.out()).contains("paused queue 'orders' (4 shards)").contains("by cli:alice");
        assertThat(queue.client().pauseState().paused()).isTrue();
        assertThat(queue.client().stats().pausedShards()).isEqualTo(4);
        assertThat(queue.client().pauseState().by()).isEqualTo("cli:alice");
        assertThat(delayq("stats").out()).contains("PAUSED: 4 of 4 shards hand out no task");
        assertThat(delayq("stats", "--output", "json").out()).contains("\"pausedShards\" : 4");

        CliRun r = delayq("resume");
        assertThat(r.out()).contains("resumed queue 'orders'");
        assertThat(queue.client().stats().pausedShards()).isZero();
        assertThat(queue.client().pauseState().paused()).isFalse();
        assertThat(redisHasNo(ShardKeys.meta("orders"), "paused")).isTrue();
    }

    private boolean redisHasNo(String key, String field) {
        return !Replies.await(queue.client().redis().commands().hexists(key, field), Duration.ofSeconds(5));
    }
}
