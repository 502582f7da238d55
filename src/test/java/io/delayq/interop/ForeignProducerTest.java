package io.delayq.interop;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Producers that are not Java write tasks by the README's protocol (CRC-32 shard, HSET of the JSON
 * record + ZADD of the due time + ZADD LT of the marker, or a bare ZADD), and the Java side sees
 * exactly those tasks with their payloads. Skipped where the tool is missing.
 */
class ForeignProducerTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String QUEUE = "orders";
    private static final int SHARDS = 8;

    /** A task as the foreign producer writes it; payload null = bare ZADD. */
    record Task(String id, long due, int priority, String payload) {
    }

    private TestQueue q;
    private long now;
    private List<Task> tasks;

    @BeforeEach
    void open() {
        q = TestQueue.open(redis.url(), QUEUE, SHARDS);
        now = q.serverNow();
        long past = now - 60_000;
        long future = now + 3_600_000;
        tasks = List.of(
                new Task("order-8812", past, 0, "{\"action\":\"cancel-if-unpaid\",\"amount\":12.5}"),
                new Task("W-17", past - 1, 0, "pay out"),
                new Task("заказ-7", past - 2, 0, "привет, мир — ünïcödé ✓"),
                new Task("注文-42", past - 3, 0, "quotes \" and backslash \\ and / slash"),
                new Task("vip-1", past - 4, 2, "highest first"),
                new Task("high-1", past - 5, 1, "high"),
                new Task("later-1", future, 0, "not yet"),
                new Task("later-vip", future + 1, 2, "not yet either"),
                new Task("bare-due", past - 6, 0, null),
                new Task("bare-later", future + 2, 0, null),
                new Task("C-9", past - 7, 0, ""));
    }

    @AfterEach
    void close() {
        q.close();
    }

    @Test
    void redisCliProducer() throws Exception {
        assumeTrue(redisCliAvailable(), "redis-cli, gzip and od are needed");
        String out = produceWithRedisCli(tasks);
        assertThat(out.lines()).containsExactlyElementsOf(tasks.stream().map(t -> t.payload() == null ? "bare" : "added").toList());
        javaSeesExactlyTheseTasks();
    }

    @Test
    void theReadmeEnqueueScriptRefusesExistingIdsInEveryState() throws Exception {
        assumeTrue(redisCliAvailable(), "redis-cli, gzip and od are needed");
        List<Task> withRecords = tasks.stream().filter(t -> t.payload() != null).toList();
        produceWithRedisCli(withRecords);
        // put some in flight and one in the dead-letter set, then produce the same ids again, all due now
        ClaimedTask running = q.claim(q.shardOf("order-8812"), 100, Duration.ofMinutes(1)).tasks().stream()
                .filter(t -> t.id().equals("order-8812")).findFirst().orElseThrow();
        ClaimedTask dying = q.claim(q.shardOf("W-17"), 100, Duration.ofMinutes(1)).tasks().stream()
                .filter(t -> t.id().equals("W-17")).findFirst().orElseThrow();
        q.kill(dying, "boom", io.delayq.deadletter.DeadLetterPolicy.DEFAULT);
        List<Task> again = withRecords.stream().map(t -> new Task(t.id(), now - 1, t.priority(), "changed")).toList();
        assertThat(produceWithRedisCli(again).lines()).containsOnly("duplicate").hasSize(withRecords.size());
        for (Task t : withRecords) {
            TaskInfo info = q.client().inspect(t.id());
            assertThat(TaskRecord.decode(info.rawRecord()).payload()).as(t.id()).isEqualTo(t.payload());
        }
        assertThat(q.client().inspect("order-8812").score()).isEqualTo(running.token());
        assertThat(q.client().inspect("W-17").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.client().inspect("later-1").score()).isEqualTo(now + 3_600_000);
    }

    private String produceWithRedisCli(List<Task> batch) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (Task t : batch) {
            // the record is written by hand, as a shell producer would, not by our library
            String record = t.payload() == null ? "" : "{\"payload\":\"" + jsonEscape(t.payload()) + "\""
                    + (t.priority() > 0 ? ",\"priority\":" + t.priority() : "") + "}";
            lines.append(t.id()).append('\t').append(t.due()).append('\t').append(t.priority()).append('\t').append(record).append('\n');
        }
        return run(List.of("bash", script("produce.sh").toString(), String.valueOf(redis.server().port()), QUEUE,
                String.valueOf(SHARDS)), lines.toString());
    }

    private static boolean redisCliAvailable() {
        return onPath("redis-cli") && onPath("gzip") && onPath("od");
    }

    @Test
    void pythonProducer() throws Exception {
        assumeTrue(pythonRedisAvailable(), "/usr/bin/python3 with the redis module (Debian: python3-redis) is needed");
        String json = tasks.stream().map(t -> "{\"id\":\"" + jsonEscape(t.id()) + "\",\"due\":" + t.due() + ",\"priority\":"
                + t.priority() + ",\"payload\":" + (t.payload() == null ? "null" : "\"" + jsonEscape(t.payload()) + "\"") + "}")
                .collect(Collectors.joining(",", "[", "]"));
        run(List.of("/usr/bin/python3", script("produce.py").toString(), String.valueOf(redis.server().port()), QUEUE,
                String.valueOf(SHARDS)), json);
        javaSeesExactlyTheseTasks();
    }

    @Test
    void foreignProducersRefuseAWrongShardCount() throws Exception {
        assumeTrue(redisCliAvailable(), "redis-cli, gzip and od are needed");
        Process p = start(List.of("bash", script("produce.sh").toString(), String.valueOf(redis.server().port()), QUEUE, "16"), "x\t1\t0\t\n");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(q.client().stats().scheduled() + q.client().stats().due()).isZero();
    }

    private void javaSeesExactlyTheseTasks() {
        for (Task t : tasks) {
            TaskInfo info = q.client().inspect(t.id());
            assertThat(info.state()).as(t.id()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(info.score()).as(t.id()).isEqualTo(t.due());
            assertThat(info.priority()).as(t.id()).isEqualTo(t.priority());
            if (t.payload() == null) {
                assertThat(info.rawRecord()).as(t.id()).isNull();
            } else {
                assertThat(TaskRecord.decode(info.rawRecord()).payload()).as(t.id()).isEqualTo(t.payload());
            }
        }
        long dueNow = tasks.stream().filter(t -> t.due() <= now).count();
        assertThat(q.client().stats().due()).isEqualTo(dueNow);
        assertThat(q.client().stats().scheduled()).isEqualTo(tasks.size() - dueNow);
        // every shard that received a record also got its wake-up marker, no later than its earliest task
        for (Task t : tasks) {
            if (t.payload() != null) {
                List<ScoredValue<String>> marker = q.zrange(q.keys(q.shardOf(t.id())).marker());
                assertThat(marker).as("marker of %s's shard", t.id()).hasSize(1);
                assertThat((long) marker.get(0).getScore()).isLessThanOrEqualTo(t.due());
            }
        }

        // the workers' side: claim everything that is due, with the payloads the producer wrote
        Map<String, ClaimedTask> claimed = new HashMap<>();
        for (int shard = 0; shard < SHARDS; shard++) {
            List<ClaimedTask> got = q.claim(shard, 100, Duration.ofMinutes(1)).tasks();
            got.forEach(c -> claimed.put(c.id(), c));
            if (!got.isEmpty()) {
                assertThat(q.ack(got.toArray(ClaimedTask[]::new))).containsOnly(true);
            }
        }
        Map<String, String> expected = new HashMap<>();
        tasks.stream().filter(t -> t.due() <= now).forEach(t -> expected.put(t.id(), t.payload()));
        assertThat(claimed.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        claimed.forEach((id, c) -> assertThat(TaskRecord.decode(c.rawRecord()).payload()).as(id).isEqualTo(expected.get(id)));
    }

    private static String jsonEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static Path script(String name) throws IOException {
        try (InputStream in = ForeignProducerTest.class.getResourceAsStream("/producers/" + name)) {
            assertThat(in).as("test resource producers/" + name).isNotNull();
            Path file = Files.createTempFile("delayq-producer-", "-" + name);
            file.toFile().deleteOnExit();
            Files.write(file, in.readAllBytes());
            return file;
        }
    }

    private static Process start(List<String> command, String stdin) throws IOException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream out = p.getOutputStream()) {
            out.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    private static String run(List<String> command, String stdin) throws Exception {
        Process p = start(command, stdin);
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("%s exit code; output: %s", command, output).isZero();
        return output;
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static boolean pythonRedisAvailable() {
        if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import redis").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
