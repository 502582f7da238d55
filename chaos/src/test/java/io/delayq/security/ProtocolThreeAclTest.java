package io.delayq.security;

import io.delayq.client.DelayQueueClient;
import io.delayq.handler.PermanentFailure;
import io.delayq.handler.TaskHandler;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
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
import static org.awaitility.Awaitility.await;

/**
 * The documented users on a queue recorded as protocol 3 (docs/protocol3.md): with the lines docs/security.md
 * prints, a producer and a worker do their whole job there (enqueue, reschedule, inspect, stats, a bare ZADD
 * adopted, claims split and rate-limited, retries, dead letters, extensions, completion records) and Redis's ACL LOG
 * stays empty.
 */
class ProtocolThreeAclTest {
    private static final String QUEUE = "acl-p3";
    private static final String WORKER_PASSWORD = "worker-secret-p3";
    private static final String PRODUCER_PASSWORD = "producer-secret-p3";
    private static final String OPERATOR_PASSWORD = "operator-secret-p3";

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @BeforeEach
    void createDocumentedUsers() throws Exception {
        DocumentedAcl.apply(redis.admin(), DocumentedAcl.line("delayq-worker", WORKER_PASSWORD));
        DocumentedAcl.apply(redis.admin(), DocumentedAcl.line("delayq-producer", PRODUCER_PASSWORD));
        redis.admin().commands().aclLogReset().get(5, TimeUnit.SECONDS);
    }

    @Test
    void producerAndWorkerDoTheirWholeJobWithTheDocumentedAdditionsAndNoDeniedCommand() throws Exception {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        TaskHandler handler = task -> {
            switch (task.id()) {
                case "fails-once" -> {
                    if (task.attempt() == 1) {
                        throw new IllegalStateException("first attempt fails: exercises retry");
                    }
                }
                case "poison" -> throw new PermanentFailure("exercises the dead-letter path");
                case "slow" -> Thread.sleep(1_500); // longer than the 500 ms lease: exercises extend
                default -> {
                }
            }
            handled.add(task.id());
        };
        try (DelayQueueClient producer = NewQueuesOnProtocol3.creating(3, () -> DelayQueueClient.builder()
                .redis(url("delayq-producer", PRODUCER_PASSWORD)).queue(QUEUE).shards(4).build())) {
            assertThat(producer.protocol().buckets()).as("recorded as protocol 3").isNotNull();
            List<TaskSpec> tasks = new ArrayList<>();
            // 300 due at once on 4 shards: buckets larger than a claim of the worker's batch are split (HRANDFIELD)
            for (int i = 0; i < 300; i++) {
                tasks.add(TaskSpec.of("order-" + i).payload("{\"n\":" + i + "}").priority(i % 3));
            }
            tasks.add(TaskSpec.of("fails-once"));
            tasks.add(TaskSpec.of("poison"));
            tasks.add(TaskSpec.of("slow"));
            tasks.add(TaskSpec.of("later").after(Duration.ofHours(1)).priority(2));
            tasks.add(TaskSpec.of("far").after(Duration.ofDays(2)));
            producer.enqueueAll(tasks);
            // the producer's other calls: reschedule (out of its bucket, into another), inspect, stats, forecast
            producer.reschedule("later", Duration.ofMillis(100));
            producer.reschedule("far", Duration.ofDays(1));
            // a seed producer's bare ZADD, adopted by the inspect that asks for it and by the claims
            redis.admin().commands().zadd("dq:{" + QUEUE + ":" + producer.protocol().shardOf("bare-1") + "}:due",
                    System.currentTimeMillis(), "bare-1").get(5, TimeUnit.SECONDS);
            redis.admin().commands().zadd("dq:{" + QUEUE + ":" + producer.protocol().shardOf("bare-2") + "}:due",
                    System.currentTimeMillis(), "bare-2").get(5, TimeUnit.SECONDS);
            assertThat(producer.inspect("bare-1").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(producer.inspect("later").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(producer.stats().scheduled() + producer.stats().due()).isPositive();

            Map<String, String> env = workerEnv();
            env.put("DELAYQ_LEASE", "500ms");
            env.put("DELAYQ_BATCH_SIZE", "40");
            env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "50ms");
            env.put("DELAYQ_RATE_LIMIT", "10000");
            env.put("DELAYQ_RESULTS_KEEP", "1h");
            try (Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(handler))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 300 + 5 && producer.stats().dead() == 1);
                assertThat(worker.ready()).isTrue();
            }
            assertThat(handled).contains("bare-1", "bare-2", "later", "fails-once", "slow");
            assertThat(producer.inspect("order-7").state()).as("read back by the producer's user").isEqualTo(TaskInfo.State.SUCCEEDED);
            assertThat(producer.inspect("far").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(producer.stats().scheduled()).isEqualTo(1);
        }
        List<Map<String, Object>> log = redis.admin().commands().aclLog().get(5, TimeUnit.SECONDS);
        log.forEach(e -> System.out.println("ACL LOG: " + e));
        assertThat(log).as("commands Redis denied to the documented users").isEmpty();
    }

    /**
     * {@code delayq reshard} as the worker's user, and the operator's user with the documented addition, each grows a
     * protocol-3 queue (4 -> 8) holding windows and minutes of every level and a dead letter (lease, stamps, protocol
     * 3's move_out and move_in, move_done, the once and dedup copies); then a worker's stray sweep, as the worker's
     * user, moves home a task a stale producer wrote under the old count, all with an empty ACL LOG.
     */
    @Test
    void theWorkersAndTheOperatorsUsersGrowAQueueOfProtocol3AndTheSweepMovesItsStrays() throws Exception {
        DocumentedAcl.apply(redis.admin(), DocumentedAcl.line("delayq-operator", OPERATOR_PASSWORD) + " "
                + DocumentedAcl.addition("# An operator that grows queues (spec.shards): append to the operator's line"));
        redis.admin().commands().aclLogReset().get(5, TimeUnit.SECONDS);
        try (io.delayq.redis.RedisEndpoint worker = io.delayq.redis.RedisEndpoint.connect(url("delayq-worker", WORKER_PASSWORD));
             io.delayq.redis.RedisEndpoint operator = io.delayq.redis.RedisEndpoint.connect(url("delayq-operator", OPERATOR_PASSWORD))) {
            growAs(operator, worker, "acl-p3-grow-op").close();
            String queue = "acl-p3-grow";
            DelayQueueClient producer = growAs(worker, worker, queue);
            try (producer) {
                String stray = java.util.stream.IntStream.range(0, 1000).mapToObj(n -> "stray-" + n)
                        .filter(id -> io.delayq.shard.Sharding.shardOf(id, 4) != io.delayq.shard.Sharding.shardOf(id, 8)).findFirst().orElseThrow();
                long now = io.delayq.testing.TestQueue.serverNow(redis.admin().commands());
                redis.admin().commands().zadd("dq:{" + queue + ":" + io.delayq.shard.Sharding.shardOf(stray, 4) + "}:due", now + 600_000, stray)
                        .get(5, TimeUnit.SECONDS);
                Map<String, String> env = DocumentedAcl.workerEnv(redis.url(), queue, 8, WORKER_PASSWORD);
                try (Worker w = Worker.start(WorkerConfig.fromEnv(env), t -> new HandlerDelivery(task -> { }))) {
                    await().atMost(Duration.ofSeconds(20)).until(() -> producer.inspect(stray).shard() == io.delayq.shard.Sharding.shardOf(stray, 8));
                }
            }
        }
        List<Map<String, Object>> log = redis.admin().commands().aclLog().get(5, TimeUnit.SECONDS);
        log.forEach(e -> System.out.println("ACL LOG: " + e));
        assertThat(log).as("commands Redis denied to the users growing a protocol-3 queue").isEmpty();
    }

    /** A protocol-3 queue of 4 shards filled by the producer's user (a dead letter by the worker's), grown to 8 by {@code mover}. */
    private DelayQueueClient growAs(io.delayq.redis.RedisEndpoint mover, io.delayq.redis.RedisEndpoint workerSide, String queue) throws Exception {
        DelayQueueClient producer = NewQueuesOnProtocol3.creating(3, () -> DelayQueueClient.builder()
                .redis(url("delayq-producer", PRODUCER_PASSWORD)).queue(queue).shards(4).build());
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tasks.add(TaskSpec.of("order-" + i).after(i % 2 == 0 ? Duration.ofMinutes(2) : Duration.ofMinutes(30)).priority(i % 3));
        }
        tasks.add(TaskSpec.of("poison"));
        producer.enqueueAll(tasks);
        io.delayq.queue.QueueProtocol asWorker = new io.delayq.queue.QueueProtocol(workerSide, queue, 4);
        io.delayq.redis.Replies.await(asWorker.verifyMeta(), Duration.ofSeconds(5));
        io.delayq.claim.ClaimedTask poison = io.delayq.redis.Replies.await(asWorker.claim(asWorker.shardOf("poison"), 10, Duration.ofMinutes(5),
                io.delayq.claim.RateLimit.NONE), Duration.ofSeconds(5)).tasks().stream().filter(t -> t.id().equals("poison")).findFirst().orElseThrow();
        io.delayq.redis.Replies.await(asWorker.retry(poison, Duration.ZERO, "bad", 1, true, io.delayq.deadletter.DeadLetterPolicy.DEFAULT),
                Duration.ofSeconds(5));

        io.delayq.queue.QueueProtocol moving = new io.delayq.queue.QueueProtocol(mover, queue, 4);
        io.delayq.redis.Replies.await(moving.verifyMeta(), Duration.ofSeconds(5));
        io.delayq.reshard.Mover.Result r = new io.delayq.reshard.Mover(io.delayq.reshard.Mover.Params.of(moving, 8, p -> { }).withBatch(7)).run();
        assertThat(r.moved()).isPositive();
        for (int i = 0; i < 200; i++) {
            assertThat(producer.inspect("order-" + i).shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("order-" + i, 8));
        }
        assertThat(producer.inspect("poison").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(producer.inspect("poison").shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("poison", 8));
        return producer;
    }

    private Map<String, String> workerEnv() {
        return DocumentedAcl.workerEnv(redis.url(), QUEUE, 4, WORKER_PASSWORD);
    }

    private String url(String user, String password) {
        return "redis://" + user + ":" + password + "@127.0.0.1:" + redis.server().port();
    }
}
