package io.delayq.task;

import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.shard.RecordBuckets;
import io.delayq.shard.ShardKeys;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Protocol v2 record storage: each record lives in one of its shard's small bucket hashes
 * ({@code dq:{q:i}:tasks:<b>}), which Redis keeps listpack-encoded, and finished tasks leave none behind.
 */
class RecordStorageTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    private static final Duration LEASE = Duration.ofMinutes(1);
    private static final Instant TOMORROW = Instant.now().plus(Duration.ofDays(1));

    private static String resource(String name) {
        try (InputStream in = RecordStorageTest.class.getClassLoader().getResourceAsStream("delayq/lua/include/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> manyIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            ids.add("order-" + i);
        }
        for (int i = 0; i < 300; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        ids.addAll(List.of("a", "заказ-7", "注文-42", "ünïcödé ✓", "with space", "x".repeat(256), "ÿ".repeat(128), "{tag}"));
        return ids;
    }

    @Test
    void luaAndJavaPutEveryIdInTheSameBucket() {
        // the scripts' own helper, pasted in as the scripts include it
        String script = resource("record_hash.lua") + "\n" + resource("shard_keys.lua") + "\n" + resource("common.lua") + "\n"
                + "local out = {}\nfor i = 1, #ARGV do out[i] = record_key(ARGV[i]) end\nreturn out\n";
        ShardKeys k = q.keys(0);
        List<String> ids = manyIds();
        for (int from = 0; from < ids.size(); from += 500) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 500));
            List<Object> lua = get(q.redis().eval(script, ScriptOutputType.MULTI, k.scriptKeys().toArray(String[]::new),
                    chunk.toArray(String[]::new)));
            for (int i = 0; i < chunk.size(); i++) {
                assertThat(lua.get(i)).as(chunk.get(i)).isEqualTo(k.record(chunk.get(i)));
            }
        }
        assertThat(ids.stream().mapToInt(RecordBuckets::bucketOf).distinct().count()).as("ids spread over many buckets").isGreaterThan(1000);
    }

    @Test
    void everyRecordLandsInTheBucketJavaComputes() {
        List<String> ids = manyIds();
        q.client().enqueueAll(ids.stream().map(id -> TaskSpec.of(id).at(TOMORROW).payload("p")).toList());
        for (String id : ids) {
            assertThat(get(q.redis().hexists(q.keys(q.shardOf(id)).record(id), id))).as(id).isTrue();
        }
        assertThat(get(q.redis().exists(q.keys(0).tasks(), q.keys(1).tasks(), q.keys(2).tasks(), q.keys(3).tasks())))
                .as("the prefix key itself is never written").isZero();
    }

    @Test
    void bucketsOfFiftyBytePayloadsStayCompactlyEncoded() {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            tasks.add(TaskSpec.of(String.format("t%09d", i)).at(TOMORROW).payload("x".repeat(50)));
        }
        q.client().enqueueAll(tasks);
        List<String> buckets = q.recordHashes();
        assertThat(buckets).hasSizeGreaterThan(RecordBuckets.BUCKETS * 3);
        for (String bucket : buckets) {
            // "listpack" since Redis 7.0; Redis 6.2 names the same compact encoding "ziplist"
            assertThat(get(q.redis().objectEncoding(bucket))).as(bucket).isIn("listpack", "ziplist");
        }
    }

    @Test
    void finishedTasksLeaveNoRecordBehind() {
        long now = q.serverNow();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ids.add("task-" + i);
        }
        q.client().enqueueAll(ids.stream().map(id -> TaskSpec.of(id).at(Instant.ofEpochMilli(now - 1)).payload("p:" + id)).toList());
        q.client().enqueue(TaskSpec.of("cancel-me").at(TOMORROW).payload("p"));
        q.client().enqueue(TaskSpec.of("cancel-dead").payload("p"));
        get(q.redis().zadd(q.keys(q.shardOf("bare")).due(0), now - 1, "bare")); // gets a '{}' record when claimed
        assertThat(storedRecordKeys()).isNotEmpty();

        assertThat(q.client().cancel("cancel-me")).isEqualTo(CancelResult.CANCELLED);
        List<String> dead = new ArrayList<>();
        for (int shard = 0; shard < 4; shard++) {
            List<ClaimedTask> claimed = q.claim(shard, 1000, LEASE).tasks();
            List<ClaimedTask> ack = new ArrayList<>();
            for (ClaimedTask t : claimed) {
                if (t.id().equals("cancel-dead") || t.id().hashCode() % 3 == 0) {
                    q.kill(t, "boom", DeadLetterPolicy.DEFAULT);
                    dead.add(t.id());
                } else {
                    ack.add(t);
                }
            }
            if (!ack.isEmpty()) {
                assertThat(q.ack(ack.toArray(ClaimedTask[]::new))).containsOnly(true);
            }
        }
        assertThat(dead).contains("cancel-dead").hasSizeGreaterThan(50);
        assertThat(q.client().cancel("cancel-dead")).isEqualTo(CancelResult.CANCELLED);
        dead.remove("cancel-dead");
        assertThat(q.client().purgeDead(dead)).isEqualTo(dead.size());

        assertThat(q.client().stats().shards()).allSatisfy(s -> assertThat(s.scheduled() + s.due() + s.inflight() + s.dead()).isZero());
        assertNothingStoredOfTheTasks();
    }

    /** The keys that hold the tasks' records: the record hashes. */
    List<String> storedRecordKeys() {
        return q.recordHashes();
    }

    /** No record is left, nor an attempt count or a last error. */
    void assertNothingStoredOfTheTasks() {
        assertThat(storedRecordKeys()).isEmpty();
        for (int shard = 0; shard < 4; shard++) {
            assertThat(get(q.redis().exists(q.keys(shard).attempts(), q.keys(shard).errors()))).isZero();
        }
    }

    @Test
    void aHandWrittenV1JsonRecordIsClaimedAndDecodedWithItsPriority() {
        String id = "order-8812";
        ShardKeys k = q.keys(q.shardOf(id));
        long now = q.serverNow();
        get(q.redis().hset(k.record(id), id, "{\"payload\":\"cancel: if unpaid ✓\",\"enqueuedAt\":1764460000000,\"priority\":1}"));
        get(q.redis().zadd(k.due(1), now - 1, id));
        assertThat(q.client().inspect(id).priority()).isEqualTo(1);

        ClaimedTask t = q.claim(q.shardOf(id), 10, LEASE).tasks().get(0);
        assertThat(TaskRecord.decode(t.rawRecord())).isEqualTo(new TaskRecord("cancel: if unpaid ✓", 1_764_460_000_000L, 1));
        // a retry puts it back into the due set of the priority its JSON record names
        q.retry(t, Duration.ZERO, "again", 5);
        assertThat(q.waitingAt(q.shardOf(id), 1).keySet()).containsExactly(id);
    }

    @Test
    void aCompactRecordKeepsItsPriorityThroughRetryAndReclaim() {
        String id = "vip-1";
        q.client().enqueue(TaskSpec.of(id).payload("urgent: now").priority(Priority.HIGHEST));
        assertThat(q.storedRecord(id)).startsWith("2").endsWith(":urgent: now");
        ClaimedTask t = q.claim(q.shardOf(id), 10, LEASE).tasks().get(0);
        q.retry(t, Duration.ZERO, "again", 5);
        assertThat(q.waitingAt(q.shardOf(id), 2).keySet()).containsExactly(id);
        assertThat(q.client().inspect(id).priority()).isEqualTo(2);
        q.kill(q.claim(q.shardOf(id), 10, LEASE).tasks().get(0), "gave up", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().inspect(id).priority()).isEqualTo(2);
        assertThat(q.client().replayDead(List.of(id))).isEqualTo(1);
        assertThat(q.waitingAt(q.shardOf(id), 2).keySet()).containsExactly(id);
    }
}
