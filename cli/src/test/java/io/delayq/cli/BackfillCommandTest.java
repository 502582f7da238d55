package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class BackfillCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @TempDir
    Path dir;

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "orders", 4);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "orders"), args);
    }

    @Test
    void jsonLines_addsOnlyWhatIsMissing_andReportsEachMalformedRowWithItsLine() throws Exception {
        queue.scheduleAt("o-2", Instant.parse("2030-01-01T00:00:00Z"), "kept as it was");
        Path file = dir.resolve("due-orders.jsonl");
        Files.writeString(file, String.join("\n",
                "{\"id\":\"o-1\",\"dueAt\":\"2030-01-01T10:00:00Z\",\"payload\":\"text\"}",
                "{\"id\":\"o-2\",\"dueAt\":\"2030-01-01T10:00:00Z\",\"payload\":\"would replace\"}",
                "",
                "{\"id\":\"o-3\",\"dueAt\":1893492000000,\"payload\":{\"action\":\"close\"},\"priority\":1}",
                "{\"id\":\"o-4\",\"dueAt\":\"next tuesday\"}",
                "{\"id\":\"o-5\",\"dueAt\":\"2030-01-01T10:00:00Z\"",
                "[1,2,3]",
                "{\"dueAt\":\"2030-01-01T10:00:00Z\"}",
                "{\"id\":\"o-1\",\"dueAt\":\"2030-01-02T10:00:00Z\"}",
                "{\"id\":\"o-6\",\"dueAt\":\"2030-01-01T10:00:00Z\",\"due_at\":\"x\"}",
                "{\"id\":\"o-7\",\"dueAt\":\"2030-01-01T10:00:00Z\",\"priority\":5}",
                "{\"id\":\"o-8\",\"dueAt\":\"2030-01-01T10:00:00+02:00\"}") + "\n");

        CliRun r = delayq("backfill", file.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).contains("3 added, 1 already present, 7 rejected");
        assertThat(r.err().lines().toList()).hasSize(7).satisfiesExactly(
                l -> assertThat(l).isEqualTo(file + ":5: dueAt: 'next tuesday' is neither an ISO-8601 instant with a zone "
                        + "(2026-12-01T10:00:00Z) nor epoch milliseconds"),
                l -> assertThat(l).startsWith(file + ":6: not valid JSON (Unexpected end-of-input"),
                l -> assertThat(l).isEqualTo(file + ":7: not a JSON object: each line must be {\"id\":…,\"dueAt\":…,\"payload\":…}"),
                l -> assertThat(l).isEqualTo(file + ":8: id: is required"),
                l -> assertThat(l).isEqualTo(file + ":9: id: 'o-1' repeats line 1 of this file"),
                l -> assertThat(l).isEqualTo(file + ":10: due_at: unknown field (the fields are id, dueAt, payload, priority)"),
                l -> assertThat(l).isEqualTo(file + ":11: priority: must be 0 (normal), 1 (high) or 2 (highest), got 5"));

        assertThat(TaskRecord.decode(queue.client().inspect("o-2").rawRecord()).payload()).isEqualTo("kept as it was");
        TaskInfo o3 = queue.client().inspect("o-3");
        assertThat(o3.score()).isEqualTo(1893492000000L);
        assertThat(o3.priority()).isEqualTo(1);
        assertThat(TaskRecord.decode(o3.rawRecord()).payload()).isEqualTo("{\"action\":\"close\"}");
        assertThat(queue.client().inspect("o-8").score()).isEqualTo(Instant.parse("2030-01-01T08:00:00Z").toEpochMilli());

        CliRun again = delayq("backfill", file.toString(), "--output", "json");
        JsonNode json = new ObjectMapper().readTree(again.out());
        assertThat(json.get("added").asLong()).isZero();
        assertThat(json.get("alreadyPresent").asLong()).isEqualTo(4);
        assertThat(json.get("rejected")).hasSize(7);
        assertThat(json.get("rejected").get(0).get("line").asLong()).isEqualTo(5);
    }

    @Test
    void csvWithHeaderQuotedCommasAndMultiLineFields() throws Exception {
        Path file = dir.resolve("reminders.csv");
        Files.writeString(file, "payload,id,dueAt\n"
                + "\"hello, world\",r-1,2030-03-01T09:00:00Z\n"
                + "\"two\nlines \"\"quoted\"\"\",r-2,1900000000000\n"
                + "x,r-3,not-a-time\n"
                + "a,b,c,d\n"
                + ",r-4,2030-03-01T09:00:00Z\n");

        CliRun r = delayq("backfill", file.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).contains("3 added, 0 already present, 2 rejected");
        assertThat(r.err()).contains(file + ":5: dueAt: 'not-a-time'", file + ":6: expected 3 fields as in the header, got 4");
        assertThat(TaskRecord.decode(queue.client().inspect("r-1").rawRecord()).payload()).isEqualTo("hello, world");
        assertThat(TaskRecord.decode(queue.client().inspect("r-2").rawRecord()).payload()).isEqualTo("two\nlines \"quoted\"");
        assertThat(TaskRecord.decode(queue.client().inspect("r-4").rawRecord()).payload()).isNull();
    }

    @Test
    void manyRowsGoInBatchesAndASecondRunAddsNothing() throws Exception {
        Path file = dir.resolve("export.txt");
        Files.writeString(file, IntStream.range(0, 2500)
                .mapToObj(i -> "{\"id\":\"bulk-" + i + "\",\"dueAt\":" + (1_900_000_000_000L + i) + "}")
                .collect(Collectors.joining("\n")));
        queue.schedule("bulk-7", Duration.ofHours(1), "already there");

        CliRun first = delayq("backfill", file.toString(), "--format", "jsonl");
        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).contains("2499 added, 1 already present, 0 rejected");
        assertThat(queue.client().stats().scheduled()).isEqualTo(2500);

        CliRun second = delayq("backfill", file.toString(), "--format", "jsonl");
        assertThat(second.exitCode()).isZero();
        assertThat(second.out()).contains("0 added, 2500 already present, 0 rejected");
    }

    @Test
    void unusableFileOrHeaderIsAUsageErrorBeforeAnythingIsWritten() throws Exception {
        CliRun missing = delayq("backfill", dir.resolve("nope.csv").toString());
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.err()).contains("file: no such file");

        Path txt = dir.resolve("tasks.txt");
        Files.writeString(txt, "{}\n");
        CliRun unknownFormat = delayq("backfill", txt.toString());
        assertThat(unknownFormat.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknownFormat.err()).contains("format: cannot tell the format", "--format");

        Path header = dir.resolve("bad.csv");
        Files.writeString(header, "id,when,payload\na,2030-01-01T00:00:00Z,x\n");
        CliRun badHeader = delayq("backfill", header.toString());
        assertThat(badHeader.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badHeader.oneErrorLine()).isTrue();
        assertThat(badHeader.err()).contains("header: unknown column 'when'");
        assertThat(queue.client().stats().scheduled()).isZero();
    }
}
