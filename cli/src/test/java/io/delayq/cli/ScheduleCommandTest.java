package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.schedule.PlanRules;
import io.delayq.schedule.ScheduleStatus;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** delayq schedule add|list|pause|resume|remove against a real Redis. */
class ScheduleCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "books", 2);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "books"), args);
    }

    @Test
    void addListPauseResumeRemove() throws Exception {
        CliRun add = delayq("schedule", "add", "close-books", "--cron", "5 0 * * *", "--time-zone", "Asia/Shanghai",
                "--payload", "{\"action\":\"close-day\"}", "--priority", "1");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        assertThat(add.out()).startsWith("added schedule close-books (queue books, revision 1): next ").contains("16:05:00Z");

        CliRun again = delayq("schedule", "add", "close-books", "--cron", "5 0 * * *", "--time-zone", "Asia/Shanghai",
                "--payload", "{\"action\":\"close-day\"}", "--priority", "1");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(again.out()).startsWith("unchanged schedule close-books (revision 1)");

        assertThat(delayq("schedule", "add", "tick", "--cron", "* * * * * *", "--misfire-policy", "doNothing").exitCode()).isZero();
        ScheduleStatus stored = io.delayq.schedule.Schedules.of(queue.client()).get("close-books").orElseThrow();
        assertThat(stored.definition().payload()).isEqualTo("{\"action\":\"close-day\"}");
        assertThat(stored.definition().priority()).isEqualTo(1);

        CliRun list = delayq("schedule", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).contains("NAME", "CRON", "NEXT", "LAST OUTCOME", "close-books", "5 0 * * *", "Asia/Shanghai", "tick",
                "2 schedule(s) in queue books");

        // a worker's turn fires tick; the list shows what became of the occurrence
        io.delayq.schedule.Schedules.of(queue.client()).planner(new PlanRules(Duration.ofSeconds(3), Duration.ofSeconds(30), 100)).turn();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            for (int s = 0; s < 2; s++) {
                List<ClaimedTask> t = queue.protocol().claim(s, 100, Duration.ofMinutes(1), RateLimit.NONE).toCompletableFuture().get().tasks();
                if (!t.isEmpty()) {
                    queue.protocol().ack(s, t).toCompletableFuture().get();
                    return true;
                }
            }
            return false;
        });
        JsonNode json = new ObjectMapper().readTree(delayq("schedule", "list", "--output", "json").out());
        JsonNode tick = json.get("schedules").get(1);
        assertThat(tick.get("name").asText()).isEqualTo("tick");
        assertThat(tick.get("lastTaskId").asText()).startsWith("sched:tick:1:");
        assertThat(tick.get("lastOutcome").asText()).isIn("succeeded", "pending");

        CliRun pause = delayq("schedule", "pause", "close-books");
        assertThat(pause.out()).isEqualTo("paused: close-books (revision 2)\n");
        assertThat(delayq("schedule", "pause", "close-books").out()).startsWith("already paused: close-books (revision 2)");
        assertThat(delayq("schedule", "list").out()).containsPattern("close-books .* paused +- ");
        assertThat(delayq("schedule", "resume", "close-books").out()).startsWith("resumed: close-books (revision 3)");

        assertThat(delayq("schedule", "remove", "tick").out()).isEqualTo("removed: tick\n");
        CliRun missing = delayq("schedule", "remove", "tick");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(missing.err()).contains("no schedule named tick in queue books");
        assertThat(delayq("schedule", "pause", "nope").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void badInputNamesTheOptionAndTheRuleAndWritesNothing() {
        CliRun cron = delayq("schedule", "add", "tick", "--cron", "61 * * * *");
        assertThat(cron.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cron.err()).contains("--cron: \"61 * * * *\" is not a valid expression");
        CliRun zone = delayq("schedule", "add", "tick", "--cron", "* * * * *", "--time-zone", "Mars/Base");
        assertThat(zone.err()).contains("--time-zone: must be an IANA time zone");
        CliRun name = delayq("schedule", "add", "Tick_1", "--cron", "* * * * *");
        assertThat(name.err()).contains("NAME: must be a DNS label");
        CliRun policy = delayq("schedule", "add", "tick", "--cron", "* * * * *", "--misfire-policy", "never");
        assertThat(policy.err()).contains("--misfire-policy: must be one of fireOnceNow, doNothing, fireAllMissed");
        CliRun window = delayq("schedule", "add", "tick", "--cron", "* * * * *", "--start", "2027-02-01T00:00:00Z", "--end", "2027-01-01T00:00:00Z");
        assertThat(window.err()).contains("--end: must be after start");
        assertThat(io.delayq.schedule.Schedules.of(queue.client()).list()).isEmpty();
    }
}
