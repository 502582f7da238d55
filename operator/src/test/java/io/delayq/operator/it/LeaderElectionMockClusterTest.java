package io.delayq.operator.it;

import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.testing.CrdPaths;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two operator replicas with leader election against one Fabric8 mock API server (CRUD mode, which
 * stores the coordination.k8s.io Lease like any other object) and a real redis-server: one leads and
 * reconciles, the other waits; when the leader stops, the other takes the Lease and reconciles.
 * <p>
 * The SDK first checks its Lease permissions with a SelfSubjectRulesReview, which an API server
 * evaluates against RBAC; the mock has no RBAC, so it answers with what the chart's Role grants
 * (leases get/create/update). Short Lease timings keep the hand-over within seconds.
 */
@EnableKubernetesMockClient(crud = true)
class LeaderElectionMockClusterTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static KubernetesMockServer server;

    private static final String NAMESPACE = "shop";
    private static final String LEASE_NAMESPACE = "delayq-system";
    private static final Duration LEASE_DURATION = Duration.ofSeconds(4);

    private final List<Replica> replicas = new ArrayList<>();

    @BeforeAll
    static void installCrdAndGrantTheLease() throws Exception {
        try (var in = Files.newInputStream(CrdPaths.generated())) {
            client.apiextensions().v1().customResourceDefinitions().load(in).create();
        }
        io.delayq.operator.testing.MockCluster.grantLeaseRules(server);
        io.delayq.operator.testing.MockCluster.serveDiscovery(server, true);
    }

    @AfterEach
    void stopReplicas() {
        replicas.forEach(Replica::stop);
    }

    @Test
    void oneReplicaLeadsAndTheOtherTakesOverWhenItStops() throws Exception {
        Replica a = start("delayq-operator-a");
        Replica b = start("delayq-operator-b");

        await("a replica holds the Lease").atMost(Duration.ofSeconds(10)).until(() -> holder().isPresent());
        Replica leader = holder().orElseThrow().equals(a.identity) ? a : b;
        Replica follower = leader == a ? b : a;

        create("before");

        await("the leader creates the worker Deployment").atMost(Duration.ofSeconds(20))
                .until(() -> deploymentNames().contains("before-worker-0-1"));
        await("the leader reads the backlog").atMost(Duration.ofSeconds(20))
                .until(() -> leader.scrape().contains("delayqueue=\"before\"") && fetch("before").getStatus() != null);
        double leaderCount = leader.reconciliations();
        assertThat(leaderCount).as("reconciliations by the leader").isPositive();
        // The leader reschedules every second (backlog interval): for two seconds it keeps working,
        // while the follower, whose informers see the same DelayQueue, never reconciles.
        await("the follower stays idle").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5))
                .until(() -> follower.reconciliations() == 0 && !follower.scrape().contains("delayqueue="));
        assertThat(leader.reconciliations()).as("the leader went on reconciling meanwhile").isGreaterThan(leaderCount);
        assertThat(holder()).as("leadership did not move").hasValue(leader.identity);

        long stopped = System.nanoTime();
        leader.stop();

        await("the follower takes the Lease once it expires").atMost(LEASE_DURATION.multipliedBy(4))
                .until(() -> holder().equals(Optional.of(follower.identity)));
        System.out.printf("Lease handed over %d ms after the leader stopped (lease duration %s)%n",
                Duration.ofNanos(System.nanoTime() - stopped).toMillis(), LEASE_DURATION);
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);

        create("after");

        await("the new leader creates the new queue's Deployment").atMost(Duration.ofSeconds(20))
                .until(() -> deploymentNames().contains("after-worker-0-1"));
        await("the new leader reconciles the new queue and the old one").atMost(Duration.ofSeconds(20))
                .until(() -> follower.scrape().contains("delayqueue=\"after\"") && follower.scrape().contains("delayqueue=\"before\""));
        assertThat(follower.reconciliations()).isPositive();
        assertThat(fetch("after").getStatus()).isNotNull();

        // Neither replica took the lost-Lease path (which ends the process in a pod): not the one
        // stopped on purpose, not the one that waited for the Lease.
        assertThat(leader.lostLease).hasValue(0);
        assertThat(follower.lostLease).hasValue(0);
    }

    private Replica start(String identity) {
        KubernetesClient own = server.createClient();
        AtomicInteger lostLease = new AtomicInteger();
        OperatorSettings settings = io.delayq.operator.testing.MockCluster.leaderElected(NAMESPACE, LEASE_NAMESPACE, identity,
                LEASE_DURATION.toSeconds(), Map.of());
        try {
            Replica replica = new Replica(identity, own, DelayQueueOperator.start(own, settings, false, lostLease::incrementAndGet), lostLease);
            replicas.add(replica);
            return replica;
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    private void create(String name) {
        DelayQueue dq = DelayQueues.of(name, 2, null, redis.url());
        dq.getMetadata().setNamespace(NAMESPACE);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        client.resource(dq).create();
    }

    private DelayQueue fetch(String name) {
        return client.resources(DelayQueue.class).inNamespace(NAMESPACE).withName(name).get();
    }

    private List<String> deploymentNames() {
        return client.apps().deployments().inNamespace(NAMESPACE).list().getItems().stream()
                .map(d -> d.getMetadata().getName()).sorted().toList();
    }

    private Lease lease() {
        return client.resources(Lease.class).inNamespace(LEASE_NAMESPACE).withName(OperatorSettings.DEFAULT_LEADER_LEASE).get();
    }

    private Optional<String> holder() {
        return Optional.ofNullable(lease()).map(l -> l.getSpec().getHolderIdentity()).filter(h -> !h.isEmpty());
    }

    /** One operator replica: its own client (as its own pod would have), metrics endpoint and lost-Lease count. */
    private static final class Replica {
        final String identity;
        final KubernetesClient client;
        final DelayQueueOperator operator;
        final AtomicInteger lostLease;
        private final AtomicBoolean stopped = new AtomicBoolean();

        Replica(String identity, KubernetesClient client, DelayQueueOperator operator, AtomicInteger lostLease) {
            this.identity = identity;
            this.client = client;
            this.operator = operator;
            this.lostLease = lostLease;
        }

        String scrape() throws Exception {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + operator.metricsPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }

        /** The SDK's count of reconciliations this replica started (no series before the first one). */
        double reconciliations() throws Exception {
            return scrape().lines().filter(l -> l.startsWith("operator_sdk_reconciliations_started_total"))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        }

        void stop() {
            if (stopped.compareAndSet(false, true)) {
                try {
                    operator.close();
                } finally {
                    client.close();
                }
            }
        }
    }
}
