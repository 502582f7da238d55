package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.client.DelayQueueClient;
import io.delayq.handler.Task;
import io.delayq.layout.Layout;
import io.delayq.queue.QueueProtocol;
import io.delayq.reshard.Mover;
import io.delayq.shard.Sharding;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.op;
import static io.delayq.interop.Ops.task;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Python (sync and asyncio), Node and Go producers on a queue that grows from 4 to 16 shards under them (core's
 * {@link Mover}, held still after its first batch): a producer connected before the grow is refused by the shards'
 * layout stamps, re-reads the meta hash and carries on; during the migration its enqueue, cancel, reschedule and
 * inspect find an id on its old shard or its new one, duplicates are refused across the two layouts, and an id in
 * the mover's hands is waited for; after it, what a stale hand-written producer wrote to an old-count shard is still
 * found; and a Java worker over the new layout fires every task the producer left, once.
 */
class ProducerReshardInteropTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;
    private static final Pattern EVALSHA_CALLS = Pattern.compile("cmdstat_evalsha:calls=(\\d+)");

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resume = new CountDownLatch(1);

    static List<Producer> producers() {
        return Producer.all();
    }

    @AfterEach
    void closeAll() throws Exception {
        resume.countDown();
        pool.shutdownNow();
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    /** Ids whose shard changes with the grow (old != new). */
    private static List<String> moving(String prefix, int count) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; ids.size() < count; n++) {
            String id = prefix + n;
            if (Sharding.shardOf(id, FROM) != Sharding.shardOf(id, TO)) {
                ids.add(id);
            }
        }
        return ids;
    }

    private Future<Mover.Result> startPausedMover(QueueProtocol protocol) throws InterruptedException {
        Future<Mover.Result> mover = pool.submit(() -> new Mover(Mover.Params.of(protocol, TO, p -> {
            if (p.phase().equals("moving") && paused.getCount() > 0) {
                paused.countDown();
                try {
                    resume.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }).withBatch(1)).run());
        assertThat(paused.await(20, TimeUnit.SECONDS)).as("the mover reached its first batch").isTrue();
        return mover;
    }

    /** Waiting on that shard (protocol 2's due sets or protocol 3's buckets, as the queue's protocol says). */
    private static boolean onShard(TestQueue q, int shard, String id) {
        return q.waiting(shard).containsKey(id);
    }

    /** The mover's first batch of one old shard: the first set of a pass that holds a task of another shard. */
    private static io.delayq.reshard.ReshardScripts.MoveBatch takeOut(TestQueue q, int shard) {
        io.delayq.reshard.ReshardScripts scripts = new io.delayq.reshard.ReshardScripts(q.protocol().scope());
        io.delayq.reshard.ReshardScripts.MoveBatch taken = null;
        for (String set : scripts.sets()) {
            taken = sync(scripts.moveOut(shard, TO, set, 0, 1000, 1000));
            if (!taken.ids().isEmpty()) {
                break;
            }
        }
        return taken;
    }

    private static String status(JsonNode enqueueAnswer) {
        return enqueueAnswer.get(0).get("status").asText();
    }

    private static long evalshaCalls(TestQueue q) {
        Matcher m = EVALSHA_CALLS.matcher(sync(q.redis().info("commandstats")));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void enqueueCancelRescheduleAndInspectFollowTheGrowBeforeDuringAndAfter(Producer p) throws Exception {
        String queue = "grow-" + p.name();
        TestQueue q = track(TestQueue.open(redis.url(), queue, FROM));
        ProducerProcess producer = track(p.connect(redis.url(), queue, FROM)).connected();
        long later = q.serverNow() + 600_000;

        // before: the producer writes on the 4-shard layout
        List<String> waiting = moving("w-", 12);
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (String id : waiting) {
            tasks.add(task(id, "dueAt", later, "payload", "p-" + id));
        }
        List<String> fireLater = moving("fire-before-", 4);
        for (String id : fireLater) {
            tasks.add(task(id, "dueAt", later, "payload", "fire " + id));
        }
        String toCancel = moving("c-", 1).get(0);
        tasks.add(task(toCancel, "dueAt", later));
        assertThat(producer.ok(Map.of("op", "enqueue", "onDuplicate", "reject", "tasks", tasks)))
                .allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
        assertThat(status(producer.ok(enqueue(task(waiting.get(0), "dueAt", later))))).isEqualTo("DUPLICATE");
        for (String id : waiting) {
            assertThat(onShard(q, Sharding.shardOf(id, FROM), id)).as(id + " on its 4-shard shard").isTrue();
        }

        Future<Mover.Result> mover = startPausedMover(DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(FROM).build().protocol());
        Layout during = sync(q.protocol().refreshLayout());
        assertThat(during.migrating()).isTrue();

        // during: an id still on its old shard is found there (the producer last read epoch 0: refused, re-reads, follows)
        String old = waiting.stream().filter(id -> onShard(q, Sharding.shardOf(id, FROM), id)).findFirst().orElseThrow();
        int i = Sharding.shardOf(old, FROM);
        int j = Sharding.shardOf(old, TO);
        assertThat(status(producer.ok(enqueue(task(old, "dueAt", later))))).as("a duplicate across layouts").isEqualTo("DUPLICATE");
        assertThat(status(producer.ok(enqueue("keep-earlier", List.of(task(old, "dueAt", later - 60_000)))))).isEqualTo("EARLIER");
        assertThat(status(producer.ok(enqueue("replace", List.of(task(old, "dueAt", later, "payload", "new")))))).isEqualTo("REPLACED");
        assertThat(onShard(q, i, old)).isTrue();
        assertThat(onShard(q, j, old)).as("nothing written on the new shard").isFalse();
        JsonNode info = producer.ok(op("inspect", "id", old));
        assertThat(info.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(info.get("shard").asInt()).isEqualTo(i);
        assertThat(info.get("payload").asText()).isEqualTo("new");
        assertThat(producer.ok(op("reschedule", "id", old, "dueAt", later + 1000)).get("status").asText()).isEqualTo("RESCHEDULED");

        // a new id goes to its new shard; a second enqueue finds it there, then cancel does
        String fresh = moving("n-", 1).get(0);
        assertThat(status(producer.ok(enqueue(task(fresh, "dueAt", later))))).isEqualTo("ADDED");
        assertThat(onShard(q, Sharding.shardOf(fresh, TO), fresh)).isTrue();
        assertThat(onShard(q, Sharding.shardOf(fresh, FROM), fresh)).isFalse();
        assertThat(status(producer.ok(enqueue(task(fresh, "dueAt", later))))).isEqualTo("DUPLICATE");
        assertThat(producer.ok(op("cancel", "id", fresh)).asText()).isEqualTo("CANCELLED");
        assertThat(producer.ok(op("inspect", "id", fresh)).get("state").asText()).isEqualTo("UNKNOWN");
        // what Java wrote during the move, the producer finds, and the other way round
        String fromJava = moving("j-", 1).get(0);
        q.client().enqueue(io.delayq.task.TaskSpec.of(fromJava).at(java.time.Instant.ofEpochMilli(later)));
        assertThat(status(producer.ok(enqueue(task(fromJava, "dueAt", later))))).isEqualTo("DUPLICATE");
        assertThat(q.client().inspect(old).shard()).isEqualTo(i);

        // an id in the mover's hands: the producer waits ("moving") until it is delivered, then finds it on its new shard
        int k = IntStream.range(0, FROM).filter(s -> s != i).findFirst().orElseThrow();
        io.delayq.reshard.ReshardScripts.MoveBatch taken = takeOut(q, k);
        assertThat(taken.ids()).isNotEmpty();
        String inHands = taken.ids().get(0);
        assertThat(sync(new io.delayq.queue.TaskAdmin(q.protocol().scope()).cancelAt(k, inHands, during.epoch())).moving()).isTrue();
        long callsBefore = evalshaCalls(q);
        CompletableFuture<JsonNode> looking = CompletableFuture.supplyAsync(() -> producer.ok(op("inspect", "id", inHands)), pool);
        // the producer has asked the shard several times (and was answered "moving" each time) before the delivery
        await().atMost(Duration.ofSeconds(5)).until(() -> evalshaCalls(q) >= callsBefore + 4);
        assertThat(looking).isNotDone();
        for (int t = 0; t < TO; t++) {
            int target = t;
            List<Integer> idx = IntStream.range(0, taken.ids().size()).filter(n -> Sharding.shardOf(taken.ids().get(n), TO) == target).boxed().toList();
            if (!idx.isEmpty()) {
                sync(new io.delayq.reshard.ReshardScripts(q.protocol().scope()).moveIn(target, k, taken.seq(), idx.stream().map(taken.ids()::get).toList(), idx.stream().map(taken.states()::get).toList()));
            }
        }
        sync(new io.delayq.reshard.ReshardScripts(q.protocol().scope()).moveDone(k, taken.seq()));
        JsonNode found = looking.get(15, TimeUnit.SECONDS);
        assertThat(found.get("shard").asInt()).isEqualTo(Sharding.shardOf(inHands, TO));
        assertThat(found.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(status(producer.ok(enqueue(task(inHands, "dueAt", later))))).isEqualTo("DUPLICATE");

        // a producer that connects during the move with the old count follows the meta's layout
        ProducerProcess late = track(p.connect(redis.url(), queue, FROM)).connected();
        assertThat(status(late.ok(enqueue(task(old, "dueAt", later))))).isEqualTo("DUPLICATE");

        resume.countDown();
        Mover.Result result = mover.get(60, TimeUnit.SECONDS);
        assertThat(result.to()).isEqualTo(TO);

        // after: the producer (last read the migration's epoch) is refused again, re-reads and finds everything moved
        for (String id : waiting) {
            JsonNode moved = producer.ok(op("inspect", "id", id));
            assertThat(moved.get("state").asText()).as(id).isEqualTo("SCHEDULED");
            assertThat(moved.get("shard").asInt()).as(id).isEqualTo(Sharding.shardOf(id, TO));
        }
        assertThat(producer.ok(op("inspect", "id", old)).get("score").asLong()).isEqualTo(later + 1000);
        assertThat(status(producer.ok(enqueue(task(old, "dueAt", later))))).isEqualTo("DUPLICATE");
        assertThat(producer.ok(op("cancel", "id", toCancel)).asText()).isEqualTo("CANCELLED");
        assertThat(q.client().inspect(toCancel).state()).isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
        assertThat(producer.ok(op("cancel", "id", toCancel)).asText()).isEqualTo("UNKNOWN");

        // a stale hand-written producer still on 4 shards writes after the move: found on its old shard under `layouts`
        String stray = moving("stray-", 1).get(0);
        int strayShard = Sharding.shardOf(stray, FROM);
        sync(q.redis().zadd(q.keys(strayShard).due(0), later, stray));
        JsonNode strayInfo = producer.ok(op("inspect", "id", stray));
        assertThat(strayInfo.get("shard").asInt()).isEqualTo(strayShard);
        assertThat(strayInfo.get("state").asText()).isEqualTo("SCHEDULED");
        assertThat(producer.ok(op("reschedule", "id", stray, "dueAt", later + 5)).get("status").asText()).isEqualTo("RESCHEDULED");
        assertThat(producer.ok(op("cancel", "id", stray)).asText()).isEqualTo("CANCELLED");
        assertThat(onShard(q, strayShard, stray)).isFalse();

        // a Java worker over the new layout fires what the producer made due, once each, on the new shards
        Map<String, Task> fired = new ConcurrentHashMap<>();
        AtomicInteger deliveries = new AtomicInteger();
        Map<String, String> env = Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", String.valueOf(TO), "DELAYQ_HTTP_PORT", "0", "DELAYQ_LEASE", "5s",
                "DELAYQ_POLL_INTERVAL", "200ms", "DELAYQ_SHUTDOWN_GRACE", "2s");
        Worker worker = track(Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> {
            deliveries.incrementAndGet();
            fired.put(t.id(), t);
        })));
        await().atMost(Duration.ofSeconds(20)).until(worker::ready);
        for (String id : fireLater) {
            assertThat(producer.ok(op("reschedule", "id", id, "delayMs", 0)).get("status").asText()).isEqualTo("RESCHEDULED");
        }
        List<String> fireAfter = moving("fire-after-", 4);
        List<Map<String, Object>> now = new ArrayList<>();
        for (String id : fireAfter) {
            now.add(task(id, "delayMs", 0, "payload", "fire " + id));
        }
        assertThat(producer.ok(Map.of("op", "enqueue", "onDuplicate", "reject", "tasks", now)))
                .allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
        List<String> all = new ArrayList<>(fireLater);
        all.addAll(fireAfter);
        await().atMost(Duration.ofSeconds(20)).until(() -> fired.keySet().containsAll(all));
        for (String id : all) {
            assertThat(fired.get(id).payload()).isEqualTo("fire " + id);
            assertThat(fired.get(id).shard()).isEqualTo(Sharding.shardOf(id, TO));
            assertThat(fired.get(id).attempt()).isEqualTo(1);
        }
        assertThat(deliveries.get()).as("each delivered once").isEqualTo(all.size());
    }
}
