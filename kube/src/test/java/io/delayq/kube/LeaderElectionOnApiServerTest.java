package io.delayq.kube;

import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerLabels;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two operator replicas as the chart runs them, on real Leases: one leads and reconciles; when it is gone the
 * other takes over and reconciles. Then the API server restarts in the middle of a reconciliation and the operator
 * recovers by itself.
 */
@RealKubernetes
class LeaderElectionOnApiServerTest {
    private static final String NS = "leaders";

    private static RealCluster cluster;
    private static KubernetesClient admin;
    private static LocalRedisServer redis;
    private static final Map<String, ChartOperator> replicas = new HashMap<>();
    private static final AtomicInteger lost = new AtomicInteger();

    @BeforeAll
    static void start(RealCluster realCluster) {
        cluster = realCluster;
        admin = cluster.adminClient();
        redis = LocalRedisServer.start();
        Installed.namespace(admin, NS);
        for (String id : new String[]{"replica-a", "replica-b"}) {
            replicas.put(id, ChartOperator.start(cluster, Map.of("DELAYQ_LEADER_ELECTION_IDENTITY", id,
                    "DELAYQ_LEADER_ELECTION_LEASE_DURATION", "6s", "DELAYQ_LEADER_ELECTION_RENEW_DEADLINE", "4s",
                    "DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "1s"), lost::incrementAndGet));
        }
    }

    @AfterAll
    static void stop() {
        replicas.values().forEach(ChartOperator::close);
        if (redis != null) {
            redis.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    private static DelayQueue queue(String name) {
        return Queues.of(NS, name, 4, 2, redis.url());
    }

    private static int workers(String name) {
        return admin.apps().deployments().inNamespace(NS).withLabel(WorkerLabels.INSTANCE, name).list().getItems().size();
    }

    private static String holder() {
        Lease lease = admin.leases().inNamespace(Installed.OPERATOR_NAMESPACE).withName(Installed.chartOperatorEnv(admin).get("DELAYQ_LEADER_ELECTION_LEASE")).get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    @Test
    void oneReplicaLeadsAndTheOtherTakesOverWhenItIsGoneThenTheApiServerRestarts() {
        await("a leader").atMost(Duration.ofSeconds(60)).until(() -> replicas.containsKey(holder()));
        String leader = holder();
        admin.resource(queue("first")).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("first") == 2);

        replicas.remove(leader).close();
        String follower = replicas.keySet().iterator().next();

        await("the other replica leads").atMost(Duration.ofSeconds(60)).until(() -> follower.equals(holder()));
        admin.resource(queue("second")).create();
        await("the new leader reconciles").atMost(Duration.ofSeconds(60)).until(() -> workers("second") == 2);

        // The API server goes away right after a change the operator must act on, and comes back.
        Queues.patchSpec(admin, NS, "second", "{\"replicas\":2}");
        cluster.restartApiServer();
        admin.resource(queue("third")).create();

        await("reconciled after the restart").atMost(Duration.ofSeconds(120)).until(() -> workers("third") == 2
                && admin.apps().deployments().inNamespace(NS).withLabel(WorkerLabels.INSTANCE, "second").list().getItems().stream()
                .allMatch(d -> d.getSpec().getReplicas() == 2));
    }
}
