package io.delayq.security;

import io.delayq.client.DelayQueueClient;
import io.delayq.redis.RedisEndpoint;
import io.delayq.task.TaskSpec;
import io.delayq.testing.LocalRedisCluster;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The documented users on a real Redis Cluster (3 primaries, ACLs set on every node, as Redis
 * Cluster does not share them): with the documented cluster addition, a producer and a worker on
 * redis-cluster:// do their whole job and no node's ACL LOG records a refusal.
 */
class RedisAclClusterTest {
    private static final String WORKER_PASSWORD = "cluster-worker-5e2b";
    private static final String PRODUCER_PASSWORD = "cluster-producer-0c7d";
    private static LocalRedisCluster cluster;

    @BeforeAll
    static void clusterWithDocumentedUsers() throws Exception {
        cluster = LocalRedisCluster.start(3);
        for (int i = 0; i < cluster.nodes().size(); i++) {
            RedisEndpoint node = cluster.node(i);
            DocumentedAcl.apply(node, DocumentedAcl.line("delayq-worker", WORKER_PASSWORD) + " " + DocumentedAcl.clusterAddition());
            DocumentedAcl.apply(node, DocumentedAcl.line("delayq-producer", PRODUCER_PASSWORD) + " " + DocumentedAcl.clusterAddition());
            node.commands().aclLogReset().get(5, TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            for (int i = 0; i < cluster.nodes().size(); i++) {
                // what a node refused, for whoever has to widen the documented permissions
                cluster.node(i).commands().aclLog().get(5, TimeUnit.SECONDS)
                        .forEach(e -> System.out.println("ACL LOG (after): " + e.get("username") + " " + e.get("context") + " " + e.get("object")));
            }
            cluster.close();
        }
    }

    @Test
    void producerAndWorkerRunOnTheClusterWithNoRefusedCommand() throws Exception {
        String hosts = cluster.url().substring("redis-cluster://".length());
        Set<String> handled = ConcurrentHashMap.newKeySet();
        try (DelayQueueClient producer = DelayQueueClient.builder()
                .redis("redis-cluster://delayq-producer:" + PRODUCER_PASSWORD + "@" + hosts).queue("acl-cluster").shards(8).build()) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                tasks.add(TaskSpec.of("c-" + i).after(Duration.ofMillis(i * 10L)));
            }
            producer.enqueueAll(tasks);
            Map<String, String> env = new HashMap<>();
            env.put("DELAYQ_REDIS_URL", cluster.url());
            env.put("DELAYQ_REDIS_USERNAME", "delayq-worker");
            env.put("DELAYQ_REDIS_PASSWORD", WORKER_PASSWORD);
            env.put("DELAYQ_QUEUE", "acl-cluster");
            env.put("DELAYQ_SHARDS", "8");
            env.put("DELAYQ_HTTP_PORT", "0");
            env.put("DELAYQ_POLL_INTERVAL", "100ms");
            try (Worker worker = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(t -> handled.add(t.id())))) {
                await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == 40);
                // long enough for Lettuce's periodic topology refresh (every 5 s) to have run as both users
                await().pollDelay(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(7)).until(worker::ready);
            }
            assertThat(producer.stats().due() + producer.stats().inflight()).isZero();
        }
        List<Map<String, Object>> refused = new ArrayList<>();
        for (int i = 0; i < cluster.nodes().size(); i++) {
            List<Map<String, Object>> log = cluster.node(i).commands().aclLog().get(5, TimeUnit.SECONDS);
            log.forEach(e -> System.out.println("ACL LOG: " + e));
            refused.addAll(log);
        }
        assertThat(refused).as("commands a cluster node refused to the documented users").isEmpty();
    }
}
