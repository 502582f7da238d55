package io.delayq.security;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.task.TaskInfo;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.handler.PermanentFailure;
import io.delayq.handler.TaskHandler;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The worker and producer ACL users of docs/security.md, applied to a real redis-server: each runs
 * its whole job without a single denied command (Redis's ACL LOG stays empty), and nothing more —
 * a producer cannot claim or ack, a worker cannot flush the database or touch keys outside dq:*.
 */
class RedisAclTest {
    private static final String QUEUE = "acl-orders";
    private static final String WORKER_PASSWORD = "worker-secret-7d1f";
    private static final String PRODUCER_PASSWORD = "producer-secret-93ab";
    private static final String OPERATOR_PASSWORD = "operator-secret-51c0";

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    /** The documented line of {@code user} ({@code role}: producer, console, operator) for the queues this class creates. */
    String line(String user, String role, String password) throws Exception {
        return DocumentedAcl.line(user, password);
    }

    @BeforeEach
    void createDocumentedUsers() throws Exception {
        DocumentedAcl.apply(redis.admin(), DocumentedAcl.line("delayq-worker", WORKER_PASSWORD));
        DocumentedAcl.apply(redis.admin(), line("delayq-producer", "producer", PRODUCER_PASSWORD));
        DocumentedAcl.apply(redis.admin(), line("delayq-operator", "operator", OPERATOR_PASSWORD));
        redis.admin().commands().aclLogReset().get(5, TimeUnit.SECONDS);
    }

    @Test
    void producerAndWorkerDoTheirWholeJobWithTheDocumentedUsersAndNoDeniedCommand() throws Exception {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Map<String, Integer> attempts = new ConcurrentHashMap<>();
        TaskHandler handler = task -> {
            attempts.merge(task.id(), 1, Integer::sum);
            switch (task.id()) {
                case "fails-once" -> {
                    if (task.attempt() == 1) {
                        throw new IllegalStateException("first attempt fails: exercises retry.lua");
                    }
                }
                case "poison" -> throw new PermanentFailure("exercises the dead-letter path");
                case "slow", "slow-acct" -> Thread.sleep(1_500); // longer than the 500 ms lease: exercises extend.lua
                default -> {
                }
            }
            handled.add(task.id());
        };
        try (DelayQueueClient producer = producer()) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                TaskSpec order = TaskSpec.of("order-" + i).after(Duration.ofMillis(i * 10L)).payload("{\"n\":" + i + "}");
                // a few with a dedup window: the ack's ZCARD, ZMSCORE, ZADD, ZRANGEBYSCORE, ZREM on dq:{q:i}:dedup
                tasks.add(i < 3 ? order.dedupWindow(Duration.ofHours(1)) : order);
            }
            tasks.add(TaskSpec.of("fails-once"));
            tasks.add(TaskSpec.of("poison").dedupWindow(Duration.ofHours(1))); // dead-lettering starts a window
            tasks.add(TaskSpec.of("slow"));
            // a group capped at one running: group_permits.lua takes, extends (the slow one) and gives back permits
            for (int i = 0; i < 5; i++) {
                tasks.add(TaskSpec.of("acct-" + i).group("acct"));
            }
            tasks.add(TaskSpec.of("slow-acct").group("acct"));
            tasks.add(TaskSpec.of("later").after(Duration.ofHours(1)).priority(2));
            producer.enqueueAll(tasks);
            // the producer's other calls: reschedule, inspect, stats
            producer.reschedule("later", Duration.ofMillis(100));
            // a hand-written task with its due time in seconds: the claim's malformed-task path (TYPE)
            redis.admin().commands().zadd("dq:{" + QUEUE + ":" + producer.protocol().shardOf("in-seconds") + "}:due", 1764460000, "in-seconds")
                    .get(5, TimeUnit.SECONDS);
            assertThat(producer.inspect("later").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(producer.stats().scheduled() + producer.stats().due()).isPositive();

            Map<String, String> env = workerEnv();
            env.put("DELAYQ_LEASE", "500ms");
            env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "50ms");
            env.put("DELAYQ_RATE_LIMIT", "10000"); // the rate-limited claim path (token bucket hash)
            env.put("DELAYQ_RESULTS_KEEP", "1h"); // completion records: the ack's TIME, HSET, ZADD, ZCARD, ZRANGE, PEXPIRE
            env.put("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "acct=1");
            try (Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(handler))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 59 && producer.stats().dead() == 2);
                assertThat(worker.ready()).isTrue();
            }
            assertThat(producer.inspect("order-7").state()).as("read back by the producer's user").isEqualTo(TaskInfo.State.SUCCEEDED);
            assertThat(attempts.get("fails-once")).isEqualTo(2);
            // the producer meets the windows: refused (ZCARD, ZSCORE), and a new id with one (ZADD)
            assertThat(producer.enqueue(TaskSpec.of("order-0").after(Duration.ofHours(1))).status()).isEqualTo(EnqueueResult.Status.WINDOW);
            assertThat(producer.enqueue(TaskSpec.of("poison").after(Duration.ofHours(1))).status()).isEqualTo(EnqueueResult.Status.WINDOW);
            assertThat(producer.enqueue(TaskSpec.of("order-99").after(Duration.ofHours(1))).added()).isTrue();
            assertThat(producer.enqueue(TaskSpec.of("order-100").after(Duration.ofHours(1)).dedupWindow(Duration.ofHours(1))).added()).isTrue();
            // (the producer's user cannot cancel: no ZREM) the two just added are scheduled an hour ahead
            assertThat(producer.stats().inflight() + producer.stats().due()).isZero();
            assertThat(producer.stats().scheduled()).isEqualTo(2);
        }
        assertThat(aclLog()).as("commands Redis denied to the documented users").isEmpty();
    }

    @Test
    void streamHandOffNeedsOnlyXaddOnItsOwnStreamKey() throws Exception {
        // docs/security.md: for DELAYQ_DELIVERY=stream, append "+xadd ~<stream key>" to the worker's line
        DocumentedAcl.apply(redis.admin(), "ACL SETUSER delayq-worker +xadd ~ready:orders");
        try (DelayQueueClient producer = producer()) {
            for (int i = 0; i < 20; i++) {
                producer.enqueue(TaskSpec.of("s-" + i).payload("p" + i));
            }
            Map<String, String> env = workerEnv();
            env.put("DELAYQ_DELIVERY", "stream");
            env.put("DELAYQ_STREAM_KEY", "ready:orders");
            WorkerConfig config = WorkerConfig.fromEnv(env);
            try (Worker worker = Worker.start(config, Deliveries.forConfig(config))) {
                await().atMost(Duration.ofSeconds(20)).until(() -> redis.admin().commands().xlen("ready:orders").get() == 20
                        && producer.stats().inflight() + producer.stats().due() == 0);
            }
        }
        assertThat(aclLog()).isEmpty();
    }

    /**
     * The operator's user, for the calls its Redis probe makes (the queue's meta, backlog stats, and the
     * INFO / CONFIG GET it reads to judge eviction and persistence), made here the way the probe makes them.
     */
    @Test
    void operatorUserReadsBacklogAndRedisSettingsButCannotClaim() throws Exception {
        try (DelayQueueClient producer = producer()) {
            producer.enqueue(TaskSpec.of("order-1"));
        }
        try (RedisEndpoint operator = RedisEndpoint.connect(url("delayq-operator", OPERATOR_PASSWORD))) {
            QueueProtocol probe = new QueueProtocol(operator, QUEUE, 8);
            Replies.await(probe.verifyMeta(), Duration.ofSeconds(5));
            var stats = Replies.await(new io.delayq.backlog.StatsReader(probe.scope()).stats(java.util.stream.IntStream.range(0, 8)), Duration.ofSeconds(5));
            assertThat(stats.due() + stats.scheduled()).isEqualTo(1);
            assertThat(operator.commands().info("memory").get(5, TimeUnit.SECONDS)).contains("maxmemory_policy");
            assertThat(operator.commands().info("persistence").get(5, TimeUnit.SECONDS)).contains("aof_enabled");
            assertThat(operator.commands().configGet("save").get(5, TimeUnit.SECONDS)).containsKey("save");
            assertThat(aclLog()).isEmpty();
            int shard = probe.shardOf("order-1");
            assertThatThrownBy(() -> Replies.await(probe.claim(shard, 10, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5)))
                    .satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> operator.commands().configSet("maxmemory-policy", "allkeys-lru").get(5, TimeUnit.SECONDS))
                    .satisfies(RedisAclTest::deniedByAcl);
        }
    }

    /**
     * Recurring schedules with the documented users: the operator writes one (schedule_put), the
     * producer lists, pauses and removes; the worker's planner takes schedules from the index, reads
     * them, enqueues occurrences ahead and the due-now ones in the once mode.
     */
    @Test
    void schedulesArePlannedAndFiredWithTheDocumentedUsers() throws Exception {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (RedisEndpoint operator = RedisEndpoint.connect(url("delayq-operator", OPERATOR_PASSWORD));
             DelayQueueClient producer = producer()) {
            Replies.await(new QueueProtocol(operator, QUEUE, 8).verifyMeta(), Duration.ofSeconds(5));
            new io.delayq.schedule.ScheduleStore(operator, QUEUE, Duration.ofSeconds(5))
                    .put(io.delayq.schedule.CronSchedule.of("tick", "* * * * * *"), null);
            io.delayq.schedule.Schedules.of(producer).put(io.delayq.schedule.CronSchedule.of("rare", "0 3 1 1 *"));
            Map<String, String> env = workerEnv();
            env.put("DELAYQ_SCHEDULE_INTERVAL", "200ms");
            env.put("DELAYQ_SCHEDULE_HORIZON", "2s");
            try (Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(task -> handled.add(task.id())))) {
                await().atMost(Duration.ofSeconds(20)).until(() -> handled.size() >= 3);
                io.delayq.schedule.Schedules.of(producer).pause("rare");
                io.delayq.schedule.Schedules.of(producer).remove("tick");
                await().atMost(Duration.ofSeconds(10)).until(() -> io.delayq.schedule.Schedules.of(producer).store().states().keySet().equals(Set.of("rare")));
            }
            assertThat(io.delayq.schedule.Schedules.of(producer).list()).extracting(s -> s.name()).containsExactly("rare");
        }
        assertThat(handled).allSatisfy(id -> assertThat(id).startsWith("sched:tick:1:"));
        assertThat(aclLog()).as("commands Redis denied to the documented users").isEmpty();
    }

    /** docs/security.md: "replace ~dq:* by ~dq:{orders}:* ~dq:{orders:*" to confine a user to one queue. */
    @Test
    void aUserCanBeConfinedToOneQueue() throws Exception {
        String line = line("delayq-producer", "producer", PRODUCER_PASSWORD)
                .replace("delayq-producer", "orders-only").replace("~dq:*", "~dq:{" + QUEUE + "}:* ~dq:{" + QUEUE + ":*");
        DocumentedAcl.apply(redis.admin(), line);
        String url = url("orders-only", PRODUCER_PASSWORD);
        try (DelayQueueClient own = DelayQueueClient.builder().redis(url).queue(QUEUE).shards(8).build()) {
            assertThat(own.enqueue(TaskSpec.of("order-1")).added()).isTrue();
        }
        // a queue whose name merely starts the same way is another queue: refused
        assertThatThrownBy(() -> DelayQueueClient.builder().redis(url).queue(QUEUE + "-eu").shards(8).build())
                .satisfies(RedisAclTest::deniedByAcl);
        assertThatThrownBy(() -> DelayQueueClient.builder().redis(url).queue("payouts").shards(8).build())
                .satisfies(RedisAclTest::deniedByAcl);
    }

    /**
     * docs/security.md: `delayq reshard` runs as the worker's user, and an operator that grows queues as the operator's
     * user with the documented addition. Each grows a queue holding waiting tasks of every priority, a dead letter, an
     * in-flight task and a once-mode occurrence (lease, stamps, move_out / move_in / move_done, the once copy); then
     * a worker's stray sweep, as the worker's user, moves home a task a stale producer wrote under the old count —
     * all with an empty ACL LOG.
     */
    @Test
    void reshardAndStraySweepRunWithTheDocumentedUsers() throws Exception {
        DocumentedAcl.apply(redis.admin(), "ACL SETUSER delayq-operator "
                + DocumentedAcl.addition("# An operator that grows queues (spec.shards): append to the operator's line"));
        try (RedisEndpoint worker = RedisEndpoint.connect(url("delayq-worker", WORKER_PASSWORD));
             RedisEndpoint operator = RedisEndpoint.connect(url("delayq-operator", OPERATOR_PASSWORD));
             DelayQueueClient producer = producer()) {
            fillAndGrow(producer, new QueueProtocol(worker, QUEUE, 8), worker);
            try (DelayQueueClient payouts = DelayQueueClient.builder().redis(url("delayq-producer", PRODUCER_PASSWORD)).queue("acl-payouts")
                    .shards(8).build()) {
                fillAndGrow(payouts, new QueueProtocol(operator, "acl-payouts", 8), worker);
            }
            assertThat(aclLog()).as("commands Redis denied to the users that reshard").isEmpty();

            // a stale producer on 8 shards after the grow: the worker's stray sweep moves the task home
            String stray = java.util.stream.IntStream.range(0, 1000).mapToObj(n -> "stray-" + n)
                    .filter(id -> io.delayq.shard.Sharding.shardOf(id, 8) != io.delayq.shard.Sharding.shardOf(id, 16)).findFirst().orElseThrow();
            long now = io.delayq.testing.TestQueue.serverNow(redis.admin().commands());
            redis.admin().commands().zadd(new io.delayq.shard.ShardKeys(QUEUE, io.delayq.shard.Sharding.shardOf(stray, 8)).due(0), now + 600_000, stray)
                    .get(5, TimeUnit.SECONDS);
            Map<String, String> env = workerEnv();
            env.put("DELAYQ_SHARDS", "16");
            try (Worker w = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(task -> { }))) {
                await().atMost(Duration.ofSeconds(20)).until(() -> producer.inspect(stray).shard() == io.delayq.shard.Sharding.shardOf(stray, 16));
            }
        }
        assertThat(aclLog()).as("commands Redis denied to the worker's stray sweep").isEmpty();
    }

    /** Tasks in every state a mover meets, written by the producer (and the worker's user where only it may), then 8 -> 16 as {@code mover}. */
    private void fillAndGrow(DelayQueueClient producer, QueueProtocol mover, RedisEndpoint workerSide) throws Exception {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tasks.add(TaskSpec.of("order-" + i).after(Duration.ofMinutes(10)).payload("p" + i).priority(i % 3));
        }
        producer.enqueueAll(tasks);
        QueueProtocol asWorker = new QueueProtocol(workerSide, producer.protocol().queue(), 8);
        Replies.await(asWorker.verifyMeta(), Duration.ofSeconds(5));
        // a dead letter and a task in flight (the worker's user claims), and an occurrence enqueued in the once mode
        producer.enqueueAll(List.of(TaskSpec.of("poison"), TaskSpec.of("running")));
        for (String id : List.of("poison", "running")) {
            int shard = asWorker.shardOf(id);
            ClaimedTask t = Replies.await(asWorker.claim(shard, 10, Duration.ofMinutes(5), RateLimit.NONE), Duration.ofSeconds(5)).tasks()
                    .stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
            if (id.equals("poison")) {
                Replies.await(asWorker.retry(t, Duration.ZERO, "bad", 1, true, io.delayq.deadletter.DeadLetterPolicy.DEFAULT), Duration.ofSeconds(5));
            } else {
                Replies.await(asWorker.ack(shard, List.of(t)), Duration.ofSeconds(5));
            }
        }
        new io.delayq.client.AsyncDelayQueueClient(asWorker, DelayQueueClient.DEFAULT_MAX_PAYLOAD_BYTES)
                .enqueue(TaskSpec.of("sched:tick:1:1764460000000").after(Duration.ofMinutes(10)), io.delayq.task.DuplicatePolicy.ONCE)
                .toCompletableFuture().get(5, TimeUnit.SECONDS);

        Replies.await(mover.verifyMeta(), Duration.ofSeconds(5));
        io.delayq.reshard.Mover.Result r = new io.delayq.reshard.Mover(io.delayq.reshard.Mover.Params.of(mover, 16, p -> { }).withBatch(7)).run();
        assertThat(r.moved()).isPositive();
        for (int i = 0; i < 200; i++) {
            assertThat(producer.inspect("order-" + i).shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("order-" + i, 16));
        }
        assertThat(producer.inspect("poison").state()).isEqualTo(TaskInfo.State.DEAD);
    }

    /**
     * Whether the producer's line refuses an ack: on protocol 2 (its ack's ZREM of the in-flight set); on protocol 3 an
     * ack runs only commands a producer's enqueue, reschedule and cancel run too (docs/security.md).
     */
    boolean producerAckDenied() {
        return false;
    }

    @Test
    void producerCannotClaimOrAck() throws Exception {
        try (DelayQueueClient producer = producer();
             RedisEndpoint workerSide = RedisEndpoint.connect(url("delayq-worker", WORKER_PASSWORD))) {
            producer.enqueue(TaskSpec.of("order-1"));
            QueueProtocol asProducer = producer.protocol();
            int shard = asProducer.shardOf("order-1");

            assertThatThrownBy(() -> Replies.await(asProducer.claim(shard, 10, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5)))
                    .satisfies(RedisAclTest::deniedByAcl);
            assertThat(producer.inspect("order-1").state()).as("the refused claim changed nothing").isEqualTo(TaskInfo.State.SCHEDULED);

            QueueProtocol asWorker = new QueueProtocol(workerSide, QUEUE, 8);
            Replies.await(asWorker.verifyMeta(), Duration.ofSeconds(5));
            ClaimBatch batch = Replies.await(asWorker.claim(shard, 10, Duration.ofSeconds(30), RateLimit.NONE), Duration.ofSeconds(5));
            ClaimedTask claimed = batch.tasks().get(0);
            if (producerAckDenied()) {
                // even with the right fencing token in hand, the producer cannot finish the worker's task
                assertThatThrownBy(() -> Replies.await(asProducer.ack(shard, List.of(claimed)), Duration.ofSeconds(5)))
                        .satisfies(RedisAclTest::deniedByAcl);
            }
            assertThat(producer.inspect("order-1").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
            assertThat(Replies.await(asWorker.ack(shard, List.of(claimed)), Duration.ofSeconds(5))).containsExactly(true);
        }
        assertThat(aclLog()).extracting(e -> e.get("username")).containsOnly("delayq-producer");
    }

    @Test
    void workerCannotFlushOrReachKeysOutsideTheQueues() throws Exception {
        var admin = redis.admin().commands();
        admin.set("billing:api-key", "sk_live_do_not_read").get();
        try (RedisEndpoint worker = RedisEndpoint.connect(url("delayq-worker", WORKER_PASSWORD))) {
            var c = worker.commands();
            assertThatThrownBy(() -> c.flushall().get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.flushdb().get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.get("billing:api-key").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.keys("*").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.configSet("appendonly", "no").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.unlink("dq:{acl-orders:0}:due").get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            // nor through a script: key permissions apply to EVAL's KEYS and to every call inside it
            assertThatThrownBy(() -> c.eval("return redis.call('GET', KEYS[1])", ScriptOutputType.VALUE, new String[]{"billing:api-key"})
                    .get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
            assertThatThrownBy(() -> c.eval("return redis.call('GET', 'billing:api-key')", ScriptOutputType.VALUE, new String[]{"dq:x"})
                    .get(5, TimeUnit.SECONDS)).satisfies(RedisAclTest::deniedByAcl);
        }
        assertThat(admin.get("billing:api-key").get()).isEqualTo("sk_live_do_not_read");
    }

    /**
     * Refused by ACL: a command answers NOPERM; a call inside a script fails the script with "can't
     * run this command" / "can't access at least one of the keys" (Redis 7.0's wording for the same refusal).
     */
    static void deniedByAcl(Throwable e) {
        assertThat(e).hasMessageMatching("(?s).*(NOPERM|user executing the script can't (run this command|access at least one of the keys)).*");
    }

    private DelayQueueClient producer() {
        return DelayQueueClient.builder().redis(url("delayq-producer", PRODUCER_PASSWORD)).queue(QUEUE).shards(8).build();
    }

    private Map<String, String> workerEnv() {
        return DocumentedAcl.workerEnv(redis.url(), QUEUE, 8, WORKER_PASSWORD);
    }

    private String url(String user, String password) {
        return "redis://" + user + ":" + password + "@127.0.0.1:" + redis.server().port();
    }

    private List<Map<String, Object>> aclLog() throws Exception {
        List<Map<String, Object>> log = redis.admin().commands().aclLog().get(5, TimeUnit.SECONDS);
        log.forEach(e -> System.out.println("ACL LOG: " + e));
        return log;
    }
}
