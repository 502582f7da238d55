package io.delayq.kube;

import io.delayq.client.DelayQueueClient;
import io.delayq.kube.cluster.AuditEvent;
import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v1.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A DelayQueue's life on a real API server, reconciled by the operator as the chart's ServiceAccount: the scale
 * subresource (kubectl scale, and an HPA whose controller reads it), suspend, growing spec.shards, an upgrade to protocol 3
 * asked by spec.protocol, a spec that only
 * CEL or the operator can refuse, deletion with garbage collection by kube-controller-manager — and last, every
 * request the operator made held against the chart's RBAC rules.
 */
@RealKubernetes
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueueLifecycleOnApiServerTest {
    private static final String NS = "lifecycle";

    private static RealCluster cluster;
    private static KubernetesClient admin;
    private static LocalRedisServer redis;
    private static ChartOperator operator;

    @BeforeAll
    static void start(RealCluster realCluster) {
        cluster = realCluster;
        admin = cluster.adminClient();
        redis = LocalRedisServer.start();
        operator = ChartOperator.start(cluster, Map.of(), () -> { });
        Installed.namespace(admin, NS);
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    private static DelayQueue queue(String name, int shards, int perWorker) {
        return Queues.of(NS, name, shards, perWorker, redis.url());
    }

    private static List<Deployment> workers(String name) {
        return admin.apps().deployments().inNamespace(NS).withLabel(WorkerLabels.INSTANCE, name).list().getItems();
    }

    private static DelayQueue live(String name) {
        return admin.resources(DelayQueue.class).inNamespace(NS).withName(name).get();
    }

    @Test
    @Order(1)
    void kubectlScaleAndAnHpaUseTheScaleSubresource() {
        admin.resource(queue("scaled", 8, 4)).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("scaled").size() == 2);

        cluster.kubectl("scale", "dq/scaled", "--replicas=3", "-n", NS).requireSuccess();

        await().atMost(Duration.ofSeconds(60)).until(() -> workers("scaled").stream().allMatch(d -> d.getSpec().getReplicas() == 3));

        HorizontalPodAutoscaler hpa = admin.resource(new HorizontalPodAutoscalerBuilder()
                .withNewMetadata().withName("scaled").withNamespace(NS).endMetadata()
                .withNewSpec().withMinReplicas(1).withMaxReplicas(4).withTargetCPUUtilizationPercentage(80)
                .withNewScaleTargetRef().withApiVersion("delayq.io/v1alpha1").withKind("DelayQueue").withName("scaled").endScaleTargetRef()
                .endSpec().build()).create();
        assertThat(hpa.getMetadata().getUid()).isNotBlank();
        // kube-controller-manager's HPA controller reads /scale: AbleToScale says it could
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            String conditions = admin.autoscaling().v1().horizontalPodAutoscalers().inNamespace(NS).withName("scaled").get()
                    .getMetadata().getAnnotations().getOrDefault("autoscaling.alpha.kubernetes.io/conditions", "");
            assertThat(conditions).contains("\"type\":\"AbleToScale\",\"status\":\"True\"");
        });
        admin.resource(hpa).delete();
    }

    @Test
    @Order(2)
    void suspendScalesEveryWorkerDeploymentToZero() {
        admin.resource(queue("paused", 4, 2)).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("paused").size() == 2);

        Queues.patchSpec(admin, NS, "paused", "{\"suspend\":true}");

        await().atMost(Duration.ofSeconds(60)).until(() -> workers("paused").stream().allMatch(d -> d.getSpec().getReplicas() == 0));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("paused").getStatus().getConditions())
                .anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("Paused");
                    assertThat(c.getStatus()).isEqualTo("True");
                }));
    }

    @Test
    @Order(3)
    void growingShardsMovesTheTasksAndAddsTheNewDeployments() {
        admin.resource(queue("growing", 4, 2)).create();
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("growing").shards(4).build()) {
            for (int i = 0; i < 200; i++) {
                producer.enqueue(TaskSpec.of("task-" + i).at(Instant.now().plus(Duration.ofHours(1))));
            }
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("growing").size() == 2);

        Queues.patchSpec(admin, NS, "growing", "{\"shards\":8}");

        await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
            var status = live("growing").getStatus();
            assertThat(status.getResharding()).isNotNull();
            assertThat(status.getResharding().isFinished()).isTrue();
            assertThat(status.getResharding().getTo()).isEqualTo(8);
        });
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(workers("growing")).hasSize(4)
                .allSatisfy(d -> assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                        .anySatisfy(e -> {
                            assertThat(e.getName()).isEqualTo("DELAYQ_SHARDS");
                            assertThat(e.getValue()).isEqualTo("8");
                        })));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("growing").getStatus().getBacklog().getScheduled()).isEqualTo(200));
    }

    @Test
    @Order(4)
    void specProtocol3UpgradesAQueueOfProtocol2InPlace() {
        // recorded as protocol 2 by its first client, before the operator's probe could record the default
        try (DelayQueueClient producer = firstClient("upgraded", 2)) {
            for (int i = 0; i < 200; i++) {
                producer.enqueue(TaskSpec.of("task-" + i).at(Instant.now().plus(Duration.ofHours(1))));
            }
        }
        admin.resource(queue("upgraded", 4, 2)).create();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> live("upgraded").getStatus().getProtocol() == 2);

        Queues.patchSpec(admin, NS, "upgraded", "{\"protocol\":3}");

        await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
            var status = live("upgraded").getStatus();
            assertThat(status.getUpgrade().isFinished()).isTrue();
            assertThat(status.getUpgrade().getWaitingAdopted()).isEqualTo(200);
            assertThat(status.getProtocol()).isEqualTo(3);
        });
        try (RedisClient client = RedisClient.create(redis.url()); var connection = client.connect()) {
            assertThat(connection.sync().hget(ShardKeys.meta("upgraded"), "protocol")).isEqualTo("3");
            for (int shard = 0; shard < 4; shard++) {
                assertThat(connection.sync().exists(new ShardKeys("upgraded", shard).due(0))).as("protocol 2's due set of shard " + shard).isZero();
            }
        }
        // read through protocol 3's stats now: every task is still there
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("upgraded").getStatus().getBacklog().getScheduled()).isEqualTo(200));
        assertThat(admin.v1().events().inNamespace(NS).list().getItems()).filteredOn(e -> e.getInvolvedObject().getName().equals("upgraded"))
                .extracting(e -> e.getReason()).contains("ProtocolUpgradeStarted", "ProtocolUpgraded");

        // no way back: a downgrade is refused by the CRD's transition rule where the API server runs CEL, else by the operator
        try {
            Queues.patchSpec(admin, NS, "upgraded", "{\"protocol\":2}");
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("upgraded").getStatus().getConditions())
                    .anySatisfy(c -> {
                        assertThat(c.getType()).isEqualTo("Degraded");
                        assertThat(c.getReason()).isEqualTo("ProtocolDowngradeRefused");
                    }));
        } catch (KubernetesClientException e) {
            assertThat(e.getMessage()).contains("spec.protocol cannot go back");
        }
    }

    /** A queue of protocol 3 grows under spec.shards as one of protocol 2 does: the operator's mover moves its buckets. */
    @Test
    @Order(5)
    void growingShardsOfAQueueOnProtocol3MovesItsBuckets() {
        List<String> ids = new ArrayList<>();
        try (DelayQueueClient producer = firstClient("grown3", 3)) {
            assertThat(producer.protocol().buckets()).as("recorded as protocol 3").isNotNull();
            for (int i = 0; i < 200; i++) {
                ids.add("task-" + i);
                producer.enqueue(TaskSpec.of("task-" + i).at(Instant.now().plus(Duration.ofHours(1))).payload("p" + i));
            }
        }
        DelayQueue dq = queue("grown3", 4, 2);
        dq.getSpec().setProtocol(3);
        admin.resource(dq).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("grown3").size() == 2);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> live("grown3").getStatus().getProtocol() == 3);

        Queues.patchSpec(admin, NS, "grown3", "{\"shards\":8}");

        await().atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
            var status = live("grown3").getStatus();
            assertThat(status.getResharding().isFinished()).isTrue();
            assertThat(status.getResharding().getTo()).isEqualTo(8);
        });
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(workers("grown3")).hasSize(4));
        try (DelayQueueClient reader = DelayQueueClient.builder().redis(redis.url()).queue("grown3").shards(8).build()) {
            for (String id : ids) {
                var info = reader.inspect(id);
                assertThat(info.state()).as(id).isEqualTo(io.delayq.task.TaskInfo.State.SCHEDULED);
                assertThat(info.shard()).as(id).isEqualTo(io.delayq.shard.Sharding.shardOf(id, 8));
            }
        }
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("grown3").getStatus().getBacklog().getScheduled()).isEqualTo(200));
    }

    @Test
    @Order(6)
    void aSpecOnlyCelOrTheOperatorRefusesIsInvalidSpecAndTouchesNoDeployment() {
        DelayQueue bad = queue("window", 4, 2);
        bad.getSpec().setLease("5s");
        bad.getSpec().setClaimAhead("2s");

        // Kubernetes 1.20 does not run the CRD's CEL rule (claimAhead ≤ lease/10): the server stores it, the operator refuses it
        admin.resource(bad).create();

        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(live("window").getStatus().getConditions())
                .anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("Degraded");
                    assertThat(c.getReason()).isEqualTo("InvalidSpec");
                    assertThat(c.getMessage()).contains("claimAhead");
                }));
        assertThat(admin.v1().events().inNamespace(NS).list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getInvolvedObject().getName()).isEqualTo("window");
                    assertThat(e.getReason()).isEqualTo("InvalidSpec");
                });
        assertThat(workers("window")).isEmpty();
    }

    @Test
    @Order(7)
    void deletingADelayQueueGarbageCollectsItsDeployments() {
        admin.resource(queue("deleted", 4, 2)).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> workers("deleted").size() == 2);

        admin.resources(DelayQueue.class).inNamespace(NS).withName("deleted").delete();

        await().atMost(Duration.ofSeconds(90)).until(() -> workers("deleted").isEmpty()
                && admin.services().inNamespace(NS).withLabel(WorkerLabels.INSTANCE, "deleted").list().getItems().isEmpty());
    }

    @Test
    @Order(8)
    void everyRequestTheOperatorMadeIsAllowedByTheChartsRbac() {
        // Every authenticated user may ask what it may do (system:basic-user): JOSDK does so before leader election.
        List<AuditEvent> mine = cluster.auditEvents().stream().filter(e -> e.user().equals(operator.user()) && e.onResource())
                .filter(e -> !e.group().equals("authorization.k8s.io")).toList();
        List<PolicyRule> rules = new ArrayList<>();
        admin.rbac().clusterRoles().withLabel("app.kubernetes.io/instance", Installed.RELEASE).list().getItems().stream()
                .map(ClusterRole::getRules).forEach(rules::addAll);
        admin.rbac().roles().inNamespace(Installed.OPERATOR_NAMESPACE).withLabel("app.kubernetes.io/instance", Installed.RELEASE)
                .list().getItems().stream().map(Role::getRules).forEach(rules::addAll);

        TreeSet<String> used = mine.stream().map(e -> e.group() + "/" + e.rbacResource() + " " + e.verb())
                .collect(Collectors.toCollection(TreeSet::new));
        System.out.println("requests of " + operator.user() + " (group/resource verb):\n  " + String.join("\n  ", used));

        assertThat(mine).as("the operator's requests").hasSizeGreaterThan(50);
        assertThat(mine).as("requests the real RBAC authorizer refused").filteredOn(e -> !cluster.restarting(e.received()))
                .noneMatch(e -> e.code() == 403);
        assertThat(used).as("kinds of requests")
                .contains("apps/deployments create", "apps/deployments update", "delayq.io/delayqueues watch",
                        "delayq.io/delayqueues/status update", "/events create", "coordination.k8s.io/leases patch");
        for (AuditEvent e : mine) {
            assertThat(rules).as(e.group() + "/" + e.rbacResource() + " " + e.verb() + " " + e.name()).anySatisfy(r -> {
                assertThat(r.getApiGroups()).contains(e.group());
                assertThat(r.getResources()).contains(e.rbacResource());
                assertThat(r.getVerbs()).contains(e.verb());
                if (r.getResourceNames() != null && !r.getResourceNames().isEmpty()) {
                    assertThat(r.getResourceNames()).contains(e.name());
                }
            });
        }
    }

    /** The first client of {@code queue} (4 shards), which records it as {@code protocol} (the switch {@code delayq.protocol}). */
    private static DelayQueueClient firstClient(String queue, int protocol) {
        System.setProperty("delayq.protocol", String.valueOf(protocol));
        try {
            return DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(4).build();
        } finally {
            System.clearProperty("delayq.protocol");
        }
    }
}
