package io.delayq.worker.dispatch;

import io.delayq.handler.Task;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskIdText;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.delayq.worker.dispatch.RawWrites.bytes;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static io.delayq.worker.dispatch.RunningWorkers.reclaimed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The generated corpus of raw writes ({@link RawWrites}) against a real worker on a real Redis: each
 * malformed task is dead-lettered within one claim round (the lease is 30 s, the wait at most 10 s, and
 * the attempt count shows a single claim), with its exact reason and exactly one log line naming queue,
 * shard, id and reason, while a well-formed task written next to it in the same shard is delivered and
 * acked as usual.
 */
class MalformedCorpusTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "raw";
    private static final int SHARDS = 2;
    private static final String LOGGED = "malformed task dead-lettered: queue=" + Q + " ";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, SHARDS);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    @RegisterExtension
    final LogCapture log = new LogCapture();

    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> connection;
    private RedisCommands<byte[], byte[]> raw;

    @BeforeEach
    void connectRaw() {
        client = RedisClient.create(redis.url());
        connection = client.connect(ByteArrayCodec.INSTANCE);
        raw = connection.sync();
    }

    @AfterEach
    void closeRaw() {
        connection.close();
        client.shutdown();
    }

    private Worker startWorker(Map<String, Task> handled) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, SHARDS);
        env.put("DELAYQ_LEASE", "30s");
        return workers.startHandler(env, task -> {
            handled.put(task.id(), task);
        });
    }

    /** A well-formed id in the same shard as {@code id} but another record bucket. */
    private static String neighbourOf(byte[] id, int shard) {
        for (int i = 0; ; i++) {
            String candidate = "neighbour-" + i;
            if (Sharding.shardOf(candidate, SHARDS) == shard && RecordBuckets.bucketOf(candidate) != RecordBuckets.bucketOf(id)) {
                return candidate;
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.delayq.worker.dispatch.RawWrites#malformed")
    void deadLetteredAtOnceWithItsReasonAndOneLogLineWhileItsNeighbourIsDelivered(RawWrites.Case c) {
        Map<String, Task> handled = new ConcurrentHashMap<>();
        Worker w = startWorker(handled);
        long now = queue.serverNow();
        int shard = Sharding.shardOf(c.id(), SHARDS);
        ShardKeys k = queue.keys(shard);
        String neighbour = neighbourOf(c.id(), shard);

        if (c.setup() != null) {
            c.setup().apply(raw, k, c.id());
        }
        if (c.record() != null) {
            raw.hset(bytes(RawWrites.bucket(k, c.id())), c.id(), bytes(c.record()));
        }
        raw.zadd(bytes(k.due(c.level())), c.score() != null ? c.score() : now - 10, c.id());
        // the neighbour, as a hand-written producer writes a good task (docs/protocol.md, MULTI/EXEC recipe)
        long neighbourDue = c.lone() ? now + 1500 : now - 5;
        raw.multi();
        raw.hset(bytes(k.record(neighbour)), bytes(neighbour), bytes("{\"payload\":\"fine\",\"enqueuedAt\":" + now + "}"));
        raw.zadd(bytes(k.due(0)), neighbourDue, bytes(neighbour));
        raw.exec();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(raw.zscore(bytes(k.dead()), c.id())).as("in the dead-letter set").isNotNull();
            assertThat(handled).containsKey(neighbour);
            assertThat(log.lines(LOGGED)).isNotEmpty();
        });
        String reason = new String(raw.hget(bytes(k.errors()), c.id()), StandardCharsets.UTF_8);
        if (c.exact()) {
            assertThat(reason).isEqualTo(c.reason().apply(k));
        } else {
            assertThat(reason).startsWith(c.reason().apply(k)).hasSizeGreaterThan(c.reason().apply(k).length());
        }
        assertThat(new String(raw.hget(bytes(k.attempts()), c.id()), StandardCharsets.UTF_8))
                .as("dead on its first claim, not after a lease").isEqualTo("1");
        assertThat(reason).doesNotContain("lease");
        assertThat(raw.zscore(bytes(k.inflight()), c.id())).as("not left in flight").isNull();
        assertThat(raw.zscore(bytes(k.due(c.level())), c.id())).as("not left due").isNull();
        if (c.record() != null && c.id().length <= 256) {
            assertThat(raw.hget(bytes(RawWrites.bucket(k, c.id())), c.id())).as("the producer's record is kept for inspection")
                    .isEqualTo(bytes(c.record()));
        }
        assertThat(handled.keySet()).as("the handler sees only the good task").containsExactly(neighbour);
        assertThat(handled.get(neighbour).payload()).isEqualTo("fine");

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(outcomes(w, "acked")).as("the neighbour is acked").isEqualTo(1);
            assertThat(raw.zcard(bytes(k.inflight()))).isZero();
        });
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(3)).until(() -> log.lines(LOGGED).size() == 1);
        String line = log.lines(LOGGED).get(0);
        String shown = c.id().length <= 128 ? TaskIdText.show(c.id()) : TaskIdText.show(java.util.Arrays.copyOf(c.id(), 128)) + "...";
        assertThat(line).contains("queue=" + Q + " shard=" + shard + " id=\"" + shown + "\": " + reason);
        assertThat(outcomes(w, "dead")).isEqualTo(1);
        assertThat(outcomes(w, "retried")).isZero();
        assertThat(reclaimed(w, "requeued") + reclaimed(w, "dead")).as("no lease expired").isZero();
        assertThat(w.registry().find("delayq.tasks.malformed").counter().count()).isEqualTo(1);
    }

    @Test
    void nanScoresAreRefusedByRedisItself() {
        ShardKeys k = queue.keys(0);
        assertThatThrownBy(() -> raw.zadd(bytes(k.due(0)), Double.NaN, bytes("nan")))
                .isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("not a valid float");
        assertThatThrownBy(() -> {
            raw.zadd(bytes(k.due(0)), Double.NEGATIVE_INFINITY, bytes("nan"));
            raw.zincrby(bytes(k.due(0)), Double.POSITIVE_INFINITY, bytes("nan"));
        }).isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("NaN");
    }

    /** Hand-written tasks at the edges of the rules are valid and delivered as written. */
    @Test
    void handWrittenTasksAtTheEdgesOfTheRulesAreDelivered() {
        Map<String, Task> handled = new ConcurrentHashMap<>();
        Worker w = startWorker(handled);
        long now = queue.serverNow();
        String longest = "z".repeat(254) + "ł"; // 256 bytes
        Map<String, String[]> tasks = Map.of(
                "zamówienie-ł-1", new String[]{"0", "{\"payload\":\"unicode id\"}"},
                longest, new String[]{"0", null},
                "prio-2-text", new String[]{"2", "{\"payload\":\"p\",\"priority\":\"2\"}"},
                "prio-1-compact", new String[]{"1", "1mikxxdds:compact"},
                "enqueued-text", new String[]{"0", "{\"payload\":\"p\",\"enqueuedAt\":\"1764460000000\"}"},
                "enqueued-fraction", new String[]{"0", "{\"payload\":\"p\",\"enqueuedAt\":1764460000000.5}"},
                "null-fields", new String[]{"0", "{\"payload\":null,\"enqueuedAt\":null,\"priority\":null}"},
                "unknown-fields", new String[]{"0", "{\"payload\":\"p\",\"producer\":\"go-1.22\",\"priority\":0}"},
                "empty-object", new String[]{"0", "{}"});
        tasks.forEach((id, t) -> {
            ShardKeys k = queue.keys(queue.shardOf(id));
            if (t[1] != null) {
                raw.hset(bytes(k.record(id)), bytes(id), bytes(t[1]));
            }
            raw.zadd(bytes(k.due(Integer.parseInt(t[0]))), now - 10, bytes(id));
        });
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(handled.keySet()).containsExactlyInAnyOrderElementsOf(tasks.keySet()));
        assertThat(handled.get("prio-2-text").priority()).isEqualTo(2);
        assertThat(handled.get("prio-1-compact").payload()).isEqualTo("compact");
        assertThat(handled.get("enqueued-text").enqueuedAt()).isEqualTo(1764460000000L);
        assertThat(handled.get("enqueued-fraction").enqueuedAt()).isEqualTo(1764460000000L);
        assertThat(log.lines(LOGGED)).isEmpty();
        assertThat(outcomes(w, "dead")).isZero();
    }

    /** The two enqueue recipes of docs/protocol.md, taken from the page itself, still produce tasks the worker delivers. */
    @Test
    void theDocumentedHandWrittenEnqueueRecipesWork() throws Exception {
        Map<String, Task> handled = new ConcurrentHashMap<>();
        startWorker(handled);
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "protocol.md"));
        long due = queue.serverNow() - 10;

        // MULTI/EXEC: the commands of the page's block, on this queue's keys
        String block = doc.substring(doc.indexOf("MULTI\n"), doc.indexOf("EXEC\n"));
        assertThat(block).contains("HSET dq:{orders:0}:tasks:249 order-8812 '{\"payload\":\"cancel-if-unpaid\",\"enqueuedAt\":1764460000000}'",
                "ZADD dq:{orders:0}:due 1764461800000 order-8812", "ZADD dq:{orders:0}:marker LT 1764461800000 next");
        String a = "order-a";
        ShardKeys ka = queue.keys(queue.shardOf(a));
        raw.multi();
        raw.hset(bytes(ka.record(a)), bytes(a), bytes("{\"payload\":\"cancel-if-unpaid\",\"enqueuedAt\":1764460000000}"));
        raw.zadd(bytes(ka.due(0)), due, bytes(a));
        raw.dispatch(io.lettuce.core.protocol.CommandType.ZADD, new io.lettuce.core.output.IntegerOutput<>(ByteArrayCodec.INSTANCE),
                new io.lettuce.core.protocol.CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(bytes(ka.marker())).add("LT").add(due).addValue(bytes("next")));
        raw.exec();

        // the EVAL script, verbatim from the page
        int start = doc.indexOf("EVAL \"") + "EVAL \"".length();
        String script = doc.substring(start, doc.indexOf("\" 4 dq:", start));
        String b = "order-b";
        ShardKeys kb = queue.keys(queue.shardOf(b));
        List<byte[]> keys = List.of(bytes(kb.record(b)), bytes(kb.due(0)), bytes(kb.due(0)), bytes(kb.marker()));
        Long added = raw.eval(script, io.lettuce.core.ScriptOutputType.INTEGER, keys.toArray(byte[][]::new),
                bytes(b), bytes("{\"payload\":\"cancel-if-unpaid\"}"), bytes(String.valueOf(due)));
        Long again = raw.eval(script, io.lettuce.core.ScriptOutputType.INTEGER, keys.toArray(byte[][]::new),
                bytes(b), bytes("{\"payload\":\"other\"}"), bytes(String.valueOf(due)));
        assertThat(added).isEqualTo(1);
        assertThat(again).as("a duplicate is refused").isZero();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(handled.keySet()).containsExactlyInAnyOrder(a, b));
        assertThat(handled.get(a).payload()).isEqualTo("cancel-if-unpaid");
        assertThat(handled.get(a).enqueuedAt()).isEqualTo(1764460000000L);
        assertThat(handled.get(b).payload()).isEqualTo("cancel-if-unpaid");
        assertThat(log.lines(LOGGED)).isEmpty();
    }
}
