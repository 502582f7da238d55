package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code delayq stats} shows the due forecast beside the backlog, read from a real Redis: text and JSON. */
class StatsForecastTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "coupons", 2);

    private Instant next;

    /** One task under a minute ahead, one 3 and one 10 minutes ahead, two 40 minutes ahead, one in 2 hours, and one overdue. */
    private void schedule() throws Exception {
        long now = queue.serverNow();
        next = Instant.ofEpochMilli(now + 45_000);
        queue.scheduleAt("in-45s", next, "p");
        queue.scheduleAt("in-3m", Instant.ofEpochMilli(now + 180_000), "p");
        queue.scheduleAt("in-10m", Instant.ofEpochMilli(now + 600_000), "p");
        queue.scheduleAt("in-40m-a", Instant.ofEpochMilli(now + 2_400_000), "p");
        queue.scheduleAt("in-40m-b", Instant.ofEpochMilli(now + 2_400_000), "p");
        queue.scheduleAt("in-2h", Instant.ofEpochMilli(now + 7_200_000), "p");
        queue.scheduleAt("overdue", Instant.ofEpochMilli(now - 60_000), "p");
    }

    @Test
    void textShowsTheFourWindowsAndTheNextDueTimeUnderTheBacklog() throws Exception {
        schedule();

        CliRun r = CliRun.run("stats", "--redis", redis.url(), "--queue", "coupons");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        Matcher line = Pattern.compile("(?m)^forecast: due within 1m 1, 5m 2, 15m 3, 1h 5; next due (\\S+) \\(in (\\d+)(?:\\.\\d)?s\\)$")
                .matcher(r.out());
        assertThat(line.find()).as(r.out()).isTrue();
        assertThat(Instant.parse(line.group(1))).isEqualTo(next);
        assertThat(Integer.parseInt(line.group(2))).isBetween(30, 45);
        // under the backlog table, whose total counts the same waiting tasks as scheduled (and the overdue one as due)
        assertThat(r.out().indexOf("forecast:")).isGreaterThan(r.out().indexOf("total"));
        assertThat(r.out()).containsPattern("(?m)^total\\s+6\\s+1\\s");
    }

    @Test
    void jsonHasTheForecastInTotalAndPerShard() throws Exception {
        schedule();

        CliRun r = CliRun.run("stats", "--redis", redis.url(), "--queue", "coupons", "--output", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        JsonNode f = json.get("forecast");
        assertThat(f.get("dueWithin").fieldNames()).toIterable().containsExactly("1m", "5m", "15m", "1h");
        assertThat(f.at("/dueWithin/1m").asLong()).isEqualTo(1);
        assertThat(f.at("/dueWithin/5m").asLong()).isEqualTo(2);
        assertThat(f.at("/dueWithin/15m").asLong()).isEqualTo(3);
        assertThat(f.at("/dueWithin/1h").asLong()).isEqualTo(5);
        assertThat(Instant.parse(f.get("nextDue").asText())).isEqualTo(next);
        long serverTime = Instant.parse(f.get("serverTime").asText()).toEpochMilli();
        assertThat(f.get("nextDueInMillis").asLong()).isEqualTo(next.toEpochMilli() - serverTime).isBetween(30_000L, 45_000L);

        long perShardHour = 0;
        for (JsonNode s : json.get("perShard")) {
            perShardHour += s.at("/forecast/dueWithin/1h").asLong();
            if (s.get("shard").asInt() == queue.shardOf("in-45s")) {
                assertThat(Instant.parse(s.at("/forecast/nextDue").asText())).isEqualTo(next);
            }
        }
        assertThat(perShardHour).isEqualTo(5);
    }

    @Test
    void anIdleQueueHasZeroInEveryWindowAndNoNextDueTime() throws Exception {
        queue.scheduleAt("overdue", Instant.ofEpochMilli(queue.serverNow() - 1_000), "p");

        CliRun text = CliRun.run("stats", "--redis", redis.url(), "--queue", "coupons");
        CliRun json = CliRun.run("stats", "--redis", redis.url(), "--queue", "coupons", "--output", "json");

        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains("forecast: due within 1m 0, 5m 0, 15m 0, 1h 0; nothing waits for a future time");
        JsonNode f = new ObjectMapper().readTree(json.out()).get("forecast");
        assertThat(f.get("nextDue").isNull()).isTrue();
        assertThat(f.get("nextDueInMillis").isNull()).isTrue();
        assertThat(f.at("/dueWithin/1h").asLong()).isZero();
    }
}
