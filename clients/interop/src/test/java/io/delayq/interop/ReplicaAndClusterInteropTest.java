package io.delayq.interop;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.client.DelayQueueClient;
import io.delayq.client.ReplicaAckException;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.CancelResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskRecord;
import io.delayq.task.TaskSpec;
import io.delayq.testing.LocalRedisCluster;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.delayq.handler.Task;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.delayq.interop.Ops.enqueue;
import static io.delayq.interop.Ops.op;
import static io.delayq.interop.Ops.task;
import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The libraries' optional replica acknowledgement (WAIT on the connection that wrote) against a real
 * replica, and their Redis Cluster URLs against a real three-node cluster, both beside the Java client and
 * the Java worker.
 */
class ReplicaAndClusterInteropTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    /** One cluster for the class (three redis-server processes), each test on queues of its own. */
    private static LocalRedisCluster cluster;

    static List<Producer> producers() {
        return Producer.all();
    }

    static List<Producer> clusterProducers() {
        return Producer.withCluster();
    }

    /** A replica of the class's server (its first sync takes the primary's diskless-sync delay, ~5 s: once). */
    private static LocalRedisServer replica;
    private static RedisEndpoint replicaConn;

    private static synchronized RedisEndpoint replica() {
        if (replica == null) {
            replica = LocalRedisServer.start(LocalRedisServer.freePort(), List.of("--replicaof", "127.0.0.1", String.valueOf(redis.server().port())));
            replicaConn = RedisEndpoint.connect(replica.url());
            await().atMost(Duration.ofSeconds(30)).until(() -> get(replicaConn.commands().info("replication")).contains("master_link_status:up"));
        }
        return replicaConn;
    }

    private static synchronized LocalRedisCluster cluster() {
        if (cluster == null) {
            cluster = LocalRedisCluster.start(3);
        }
        return cluster;
    }

    @AfterAll
    static void stopServers() {
        if (cluster != null) {
            cluster.close();
        }
        if (replica != null) {
            replicaConn.close();
            replica.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("producers")
    void anEnqueueWaitsForTheReplicaAndFailsAsJavaDoesWhenTooFewConfirm(Producer p) throws Exception {
        p.requireInstalled();
        RedisEndpoint replicaConn = replica();
        String queue = "payouts-" + p.name();
        try (DelayQueueClient java = DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(4)
                .replicaAcks(1, Duration.ofSeconds(2)).build();
             ProducerProcess lib = p.connect(redis.url(), queue, 4, Map.of("replicaAcks", 1, "replicaAckTimeoutMs", 2000)).connected()) {
            assertThat(java.enqueue(TaskSpec.of("W-1").payload("java")).added()).isTrue();
            JsonNode added = lib.ok(enqueue(task("W-17", "delayMs", 60_000, "payload", "pay out W-17"))).get(0);
            assertThat(added.get("status").asText()).isEqualTo("ADDED");
            // acknowledged means the replica holds the record already: read it there, no waiting
            String onReplica = TestQueue.reading(java, replicaConn).storedRecord("W-17");
            assertThat(TaskRecord.decode(onReplica).payload()).isEqualTo("pay out W-17");
        }
        try (DelayQueueClient java = DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(4)
                .replicaAcks(2, Duration.ofMillis(300)).build();
             ProducerProcess lib = p.connect(redis.url(), queue, 4, Map.of("replicaAcks", 2, "replicaAckTimeoutMs", 300)).connected()) {
            ReplicaAckException javaError = catchThrowableOfType(ReplicaAckException.class, () -> java.enqueue(TaskSpec.of("W-2")));
            assertThat(javaError.acknowledged()).isEqualTo(1);
            JsonNode libError = lib.call(enqueue(task("W-2"))).get("error");
            assertThat(libError).as("%s with 2 required acks and one replica", p).isNotNull();
            assertThat(libError.get("type").asText()).isEqualTo("ReplicaAckException");
            assertThat(libError.get("message").asText()).isEqualTo(javaError.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusterProducers")
    void aClusterUrlSpreadsTasksOverTheNodesWhereTheJavaClientFindsThem(Producer p) {
        p.requireInstalled();
        String queue = "coupons-" + p.name();
        try (DelayQueueClient java = DelayQueueClient.builder().redis(cluster().url()).queue(queue).shards(12).build();
             ProducerProcess lib = p.connect(cluster().url(), queue, 12).connected()) {
            List<Map<String, Object>> tasks = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                tasks.add(task("coupon-" + i, "delayMs", 3_600_000 + i, "payload", "expire C-" + i, "priority", i % 3));
            }
            JsonNode results = lib.ok(enqueue("reject", tasks));
            assertThat(results).hasSize(60).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
            java.enqueue(TaskSpec.of("from-java").after(Duration.ofHours(1)).payload("java"));
            for (int i = 0; i < 60; i++) {
                TaskInfo info = java.inspect("coupon-" + i);
                assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
                assertThat(info.priority()).isEqualTo(i % 3);
                assertThat(info.score()).isEqualTo(results.get(i).get("dueAt").asLong());
                assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("expire C-" + i);
            }
            assertThat(lib.ok(op("cancel", "id", "coupon-7")).asText()).isEqualTo("CANCELLED");
            assertThat(java.inspect("coupon-7").state()).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(lib.ok(op("inspect", "id", "from-java")).get("payload").asText()).isEqualTo("java");
            assertThat(lib.ok(op("stats")).get("scheduled").asLong()).isEqualTo(java.stats().scheduled()).isEqualTo(60);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusterProducers")
    void tasksTheProducerWritesToAClusterFireInTheJavaWorkerAndEachSideReadsTheOthers(Producer p) {
        p.requireInstalled();
        String queue = "fire-" + p.name();
        Map<String, Task> fired = new ConcurrentHashMap<>();
        Map<String, String> env = new HashMap<>(Map.of("DELAYQ_REDIS_URL", cluster().url(), "DELAYQ_QUEUE", queue,
                "DELAYQ_SHARDS", "6", "DELAYQ_HTTP_PORT", "0", "DELAYQ_LEASE", "5s", "DELAYQ_POLL_INTERVAL", "200ms",
                "DELAYQ_SHUTDOWN_GRACE", "2s"));
        try (DelayQueueClient java = DelayQueueClient.builder().redis(cluster().url()).queue(queue).shards(6).build();
             Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> fired.put(t.id(), t)));
             ProducerProcess lib = p.connect(cluster().url(), queue, 6).connected()) {
            await().atMost(Duration.ofSeconds(20)).until(worker::ready);
            List<Map<String, Object>> tasks = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                tasks.add(task("refund-" + i, "delayMs", 200 + 20 * i, "payload", "refund R-" + i, "priority", i % 3));
            }
            tasks.add(task("later", "delayMs", 3_600_000, "payload", "tomorrow"));
            JsonNode results = lib.ok(enqueue("reject", tasks));
            assertThat(results).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
            java.enqueue(TaskSpec.of("from-java").after(Duration.ofHours(1)).payload("java"));

            await().atMost(Duration.ofSeconds(15)).until(() -> fired.size() == 12);
            for (int i = 0; i < 12; i++) {
                Task t = fired.get("refund-" + i);
                assertThat(t.payload()).isEqualTo("refund R-" + i);
                assertThat(t.priority()).isEqualTo(i % 3);
                assertThat(t.dueAt()).isEqualTo(results.get(i).get("dueAt").asLong());
                assertThat(t.shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("refund-" + i, 6));
            }
            assertThat(java.inspect("later").state()).isEqualTo(TaskInfo.State.SCHEDULED);
            assertThat(lib.ok(op("inspect", "id", "from-java")).get("payload").asText()).isEqualTo("java");
            assertThat(lib.ok(op("reschedule", "id", "from-java", "delayMs", 7_200_000)).get("status").asText()).isEqualTo("RESCHEDULED");
            assertThat(java.inspect("from-java").score()).isGreaterThan(System.currentTimeMillis() + 3_600_000);
            assertThat(java.cancel("later")).isEqualTo(CancelResult.CANCELLED);
            assertThat(lib.ok(op("inspect", "id", "later")).get("state").asText()).isEqualTo("UNKNOWN");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clusterProducers")
    void replicaAcksInAClusterWaitOnTheShardsPrimary(Producer p) {
        p.requireInstalled();
        // the test cluster has no replicas: WAIT on the shard's primary answers 0, as it does for Java
        String queue = "acks-" + p.name();
        try (DelayQueueClient java = DelayQueueClient.builder().redis(cluster().url()).queue(queue).shards(6)
                     .replicaAcks(1, Duration.ofMillis(200)).build();
             ProducerProcess lib = p.connect(cluster().url(), queue, 6, Map.of("replicaAcks", 1, "replicaAckTimeoutMs", 200)).connected()) {
            for (String id : List.of("a-1", "b-2", "c-3", "d-4")) {
                ReplicaAckException javaError = catchThrowableOfType(ReplicaAckException.class, () -> java.enqueue(TaskSpec.of(id)));
                JsonNode libError = lib.call(enqueue(task(id))).get("error");
                assertThat(libError).as("%s enqueue of %s", p, id).isNotNull();
                assertThat(libError.get("message").asText()).isEqualTo(javaError.getMessage());
            }
        }
    }
    @ParameterizedTest(name = "{0}")
    @MethodSource("clusterProducers")
    void inAClusterTheProducerFollowsAGrowItSlept(Producer p) {
        p.requireInstalled();
        String queue = "grown-" + p.name();
        try (DelayQueueClient java = DelayQueueClient.builder().redis(cluster().url()).queue(queue).shards(4).build();
             ProducerProcess lib = p.connect(cluster().url(), queue, 4).connected()) {
            List<Map<String, Object>> tasks = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                tasks.add(task("order-" + i, "delayMs", 3_600_000, "payload", "close " + i));
            }
            assertThat(lib.ok(enqueue("reject", tasks))).allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("ADDED"));
            // the queue grows 4 -> 12 while the producer is idle: its next calls meet the new layout's stamps
            io.delayq.reshard.Mover.Result grown = new io.delayq.reshard.Mover(io.delayq.reshard.Mover.Params.of(java.protocol(), 12, x -> { })).run();
            assertThat(grown.to()).isEqualTo(12);
            assertThat(lib.ok(enqueue("reject", tasks))).as("duplicates across layouts")
                    .allSatisfy(r -> assertThat(r.get("status").asText()).isEqualTo("DUPLICATE"));
            for (int i = 0; i < 30; i++) {
                JsonNode info = lib.ok(op("inspect", "id", "order-" + i));
                assertThat(info.get("shard").asInt()).isEqualTo(io.delayq.shard.Sharding.shardOf("order-" + i, 12));
                assertThat(info.get("payload").asText()).isEqualTo("close " + i);
            }
            assertThat(lib.ok(op("cancel", "id", "order-3")).asText()).isEqualTo("CANCELLED");
            assertThat(java.inspect("order-3").state()).isEqualTo(TaskInfo.State.UNKNOWN);
            assertThat(lib.ok(enqueue(task("order-30", "delayMs", 60_000))).get(0).get("status").asText()).isEqualTo("ADDED");
            assertThat(java.inspect("order-30").shard()).isEqualTo(io.delayq.shard.Sharding.shardOf("order-30", 12));
            assertThat(lib.ok(op("stats")).get("scheduled").asLong()).isEqualTo(java.stats().scheduled()).isEqualTo(30);
        }
    }
}
