package io.delayq.kube;

import io.delayq.client.DelayQueueClient;
import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.sharding.ShardPlan;
import io.delayq.operator.status.DisruptionBudgetCondition;
import io.delayq.operator.workers.WorkerNames;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.ShardRange;
import io.delayq.task.TaskSpec;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every file in {@code crds/examples}, applied to a real API server as shipped except for where Redis is (the
 * example's in-cluster host names are pointed at a real Redis on this machine, plain TCP, one Redis for the
 * examples with credentials and one without), with its namespace and the Secrets it names, and reconciled by the
 * operator running as the chart's ServiceAccount: worker Deployments with the worker contract's env, the backlog
 * read from Redis, conditions and Events — and with the controller manager and scheduler running, ReplicaSets and
 * Pods that the API server admits.
 */
@RealKubernetes
class ExamplesOnApiServerTest {
    private static final ResourceDefinitionContext DQ = new ResourceDefinitionContext.Builder()
            .withGroup("delayq.io").withVersion("v1alpha1").withPlural("delayqueues").withKind("DelayQueue").withNamespaced(true).build();
    private static final String PASSWORD = UUID.randomUUID().toString();

    private static KubernetesClient admin;
    private static LocalRedisServer open;
    private static LocalRedisServer guarded;
    private static ChartOperator operator;
    private static final List<DelayQueue> applied = new ArrayList<>();

    @BeforeAll
    static void applyEveryExample(RealCluster cluster) throws IOException {
        admin = cluster.adminClient();
        open = LocalRedisServer.start();
        guarded = LocalRedisServer.start("--requirepass", PASSWORD);
        operator = ChartOperator.start(cluster, Map.of(), () -> { });
        List<Path> files;
        try (Stream<Path> list = Files.list(Repo.EXAMPLES)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            GenericKubernetesResource dq;
            try (InputStream in = Files.newInputStream(file)) {
                dq = Serialization.unmarshal(in, GenericKubernetesResource.class);
            }
            String ns = dq.getMetadata().getNamespace();
            Installed.namespace(admin, ns);
            Map<String, Object> redis = dq.get("spec", "redis");
            boolean credentials = redis.containsKey("credentialsSecret");
            redis.put("url", (credentials ? guarded : open).url());
            redis.remove("mode");
            redis.remove("tls");
            redis.remove("tlsCaSecret");
            for (Map.Entry<String, Map<String, String>> secret : SecretsNamed.in(dq.getAdditionalProperties().get("spec"), PASSWORD).entrySet()) {
                if (admin.secrets().inNamespace(ns).withName(secret.getKey()).get() == null) {
                    admin.resource(new SecretBuilder().withNewMetadata().withName(secret.getKey()).withNamespace(ns).endMetadata()
                            .withStringData(secret.getValue()).build()).create();
                }
            }
            admin.genericKubernetesResources(DQ).inNamespace(ns).resource(dq).create();
            applied.add(admin.resources(DelayQueue.class).inNamespace(ns).withName(dq.getMetadata().getName()).get());
        }
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.close();
        }
        Stream.of(open, guarded).filter(java.util.Objects::nonNull).forEach(LocalRedisServer::close);
        if (admin != null) {
            admin.close();
        }
    }

    private static DelayQueue live(DelayQueue dq) {
        return admin.resources(DelayQueue.class).inNamespace(dq.getMetadata().getNamespace()).withName(dq.getMetadata().getName()).get();
    }

    @Test
    void everyExampleGetsItsWorkerDeploymentsWithTheContractsEnv() {
        for (DelayQueue dq : applied) {
            String ns = dq.getMetadata().getNamespace();
            List<ShardRange> ranges = ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker());
            await(dq.getMetadata().getName() + "'s Deployments").atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                for (ShardRange range : ranges) {
                    Deployment d = admin.apps().deployments().inNamespace(ns).withName(WorkerNames.deployment(dq.getMetadata().getName(), range)).get();
                    assertThat(d).as(WorkerNames.deployment(dq.getMetadata().getName(), range)).isNotNull();
                    Map<String, String> env = d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                            .filter(e -> e.getValue() != null).collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue, (a, b) -> b));
                    assertThat(env).containsEntry(WorkerSettings.QUEUE.name(), dq.queueName())
                            .containsEntry(WorkerSettings.SHARDS.name(), String.valueOf(dq.getSpec().getShards()))
                            .containsEntry(WorkerSettings.SHARD_FROM.name(), String.valueOf(range.from()))
                            .containsEntry(WorkerSettings.SHARD_TO.name(), String.valueOf(range.to()))
                            .containsEntry(WorkerSettings.BATCH_SIZE.name(), String.valueOf(dq.getSpec().getBatchSize()));
                    assertThat(d.getMetadata().getOwnerReferences()).singleElement()
                            .satisfies(o -> assertThat(o.getUid()).isEqualTo(dq.getMetadata().getUid()));
                }
            });
        }
    }

    /**
     * spec.outbox.relay.mode Deployment: the relay's own Deployment, stored and owned as the operator wrote it, running the
     * workers' image as {@code delayq outbox-relay} with the database credentials by reference; its workers carry no outbox
     * variable. An outbox in mode Workers (the default) is in every worker Deployment and has no relay Deployment.
     */
    @Test
    void anOutboxRelayRunsInItsOwnDeploymentOrInTheWorkersAsTheExampleSays() {
        List<DelayQueue> withOutbox = applied.stream().filter(dq -> dq.getSpec().getOutbox() != null).toList();
        List<DelayQueue> ownDeployment = withOutbox.stream()
                .filter(dq -> io.delayq.operator.resource.OutboxRelaySpec.ownDeployment(dq.getSpec().getOutbox())).toList();
        assertThat(ownDeployment).as("examples whose relay runs in a Deployment of its own").isNotEmpty();
        assertThat(withOutbox).as("examples whose workers run the relay").hasSizeGreaterThan(ownDeployment.size());
        for (DelayQueue dq : withOutbox) {
            String ns = dq.getMetadata().getNamespace();
            String name = dq.getMetadata().getName();
            boolean own = ownDeployment.contains(dq);
            await(name + "'s relay").atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
                Deployment relay = admin.apps().deployments().inNamespace(ns).withName(WorkerNames.outboxRelay(name)).get();
                for (ShardRange range : ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker())) {
                    Deployment worker = admin.apps().deployments().inNamespace(ns).withName(WorkerNames.deployment(name, range)).get();
                    assertThat(worker.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName)
                            .as("%s's workers", name).matches(vars -> vars.contains(WorkerSettings.OUTBOX_URL.name()) != own);
                }
                if (!own) {
                    assertThat(relay).as("no relay Deployment for %s", name).isNull();
                    return;
                }
                assertThat(relay).as(WorkerNames.outboxRelay(name)).isNotNull();
                assertThat(relay.getMetadata().getOwnerReferences()).singleElement()
                        .satisfies(o -> assertThat(o.getUid()).isEqualTo(dq.getMetadata().getUid()));
                assertThat(relay.getSpec().getReplicas()).isEqualTo(dq.getSpec().getOutbox().getRelay().getReplicas());
                var container = relay.getSpec().getTemplate().getSpec().getContainers().get(0);
                assertThat(container.getArgs()).containsExactly("outbox-relay");
                assertThat(container.getResources()).isEqualTo(dq.getSpec().getOutbox().getRelay().getResources());
                Map<String, EnvVar> env = container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e, (a, b) -> b));
                assertThat(env.get(WorkerSettings.OUTBOX_URL.name()).getValue()).isEqualTo(dq.getSpec().getOutbox().getJdbcUrl());
                assertThat(env.get(WorkerSettings.OUTBOX_PASSWORD.name()).getValueFrom().getSecretKeyRef().getName())
                        .isEqualTo(dq.getSpec().getOutbox().getCredentialsSecret().getName());
                assertThat(env.get(WorkerSettings.QUEUE.name()).getValue()).isEqualTo(dq.queueName());
                assertThat(admin.apps().replicaSets().inNamespace(ns).withLabel("app.kubernetes.io/name", "delayq-outbox-relay")
                        .withLabel("app.kubernetes.io/instance", name).list().getItems()).as("the controller manager's ReplicaSet").isNotEmpty();
            });
        }
    }

    @Test
    void statusShowsTheBacklogReadFromRedisAndTheConditions() {
        DelayQueue orders = applied.stream().filter(d -> d.getMetadata().getName().equals("order-timeout")).findFirst().orElseThrow();
        try (DelayQueueClient producer = DelayQueueClient.builder().redis("redis://:" + PASSWORD + "@127.0.0.1:" + guarded.port())
                .queue(orders.queueName()).shards(orders.getSpec().getShards()).build()) {
            for (int i = 0; i < 7; i++) {
                producer.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(5)));
            }
        }
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            DelayQueue live = live(orders);
            assertThat(live.getStatus().getBacklog()).isNotNull();
            assertThat(live.getStatus().getBacklog().getDue()).isEqualTo(7);
            assertThat(live.getStatus().getObservedGeneration()).isEqualTo(live.getMetadata().getGeneration());
        });
        for (DelayQueue dq : applied) {
            await(dq.getMetadata().getName() + "'s conditions").atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                var conditions = live(dq).getStatus().getConditions();
                assertThat(conditions).extracting(c -> c.getType()).contains("Ready", "Progressing", "Degraded");
                assertThat(conditions).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo(DisruptionBudgetCondition.TYPE);
                    assertThat(c.getStatus()).isEqualTo("False");
                    assertThat(c.getReason()).isEqualTo(DisruptionBudgetCondition.REASON);
                });
            });
        }
    }

    @Test
    void eventsSayWhatTheOperatorFound() {
        for (DelayQueue dq : applied) {
            await(dq.getMetadata().getName() + "'s Events").atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
                var events = admin.v1().events().inNamespace(dq.getMetadata().getNamespace()).list().getItems().stream()
                        .filter(e -> dq.getMetadata().getName().equals(e.getInvolvedObject().getName())).toList();
                assertThat(events).anySatisfy(e -> {
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getReason()).isEqualTo(DisruptionBudgetCondition.REASON);
                });
                // the test's Redis keeps nothing on disk: the operator warns, as it should
                assertThat(events).anySatisfy(e -> assertThat(e.getReason()).isEqualTo("RedisPersistenceOff"));
            });
        }
    }

    /**
     * docs/kubernetes.md's quick start, applied as a user applies it to a fresh cluster: every object is accepted
     * with nothing pruned, and the operator makes its worker Deployments. Its Redis is a pod, which this cluster
     * has no node to run, so the operator (outside the cluster here) reports it unreachable, as it should.
     */
    @Test
    void theQuickStartAppliesCleanlyAndIsReconciled() throws IOException {
        List<io.fabric8.kubernetes.api.model.HasMetadata> objects;
        try (InputStream in = Files.newInputStream(Repo.QUICKSTART)) {
            objects = admin.load(in).items();
        }
        assertThat(objects).extracting(o -> o.getKind()).contains("Namespace", "Secret", "Deployment", "Service", "DelayQueue");
        for (var o : objects) {
            admin.resource(o).create();
        }

        GenericKubernetesResource applied;
        try (InputStream in = Files.newInputStream(Repo.QUICKSTART)) {
            String yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            String dqDoc = java.util.Arrays.stream(yaml.split("(?m)^---\\s*$")).filter(d -> d.contains("\nkind: DelayQueue")).findFirst().orElseThrow();
            applied = Serialization.unmarshal(dqDoc, GenericKubernetesResource.class);
        }
        GenericKubernetesResource stored = admin.genericKubernetesResources(DQ).inNamespace(applied.getMetadata().getNamespace())
                .withName(applied.getMetadata().getName()).get();
        assertSubset(applied.getAdditionalProperties().get("spec"), stored.getAdditionalProperties().get("spec"), "spec");

        DelayQueue dq = admin.resources(DelayQueue.class).inNamespace(applied.getMetadata().getNamespace())
                .withName(applied.getMetadata().getName()).get();
        List<ShardRange> ranges = ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker());
        await("the quick start's worker Deployments").atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> {
            for (ShardRange range : ranges) {
                assertThat(admin.apps().deployments().inNamespace(dq.getMetadata().getNamespace())
                        .withName(WorkerNames.deployment(dq.getMetadata().getName(), range)).get()).isNotNull();
            }
            assertThat(live(dq).getStatus().getConditions()).anySatisfy(c -> {
                assertThat(c.getType()).isEqualTo("Degraded");
                assertThat(c.getReason()).isEqualTo("RedisUnavailable");
            });
        });
    }

    /** Every field of {@code applied} is in {@code stored} with the same value: the server pruned nothing. */
    @SuppressWarnings("unchecked")
    private static void assertSubset(Object applied, Object stored, String path) {
        if (applied instanceof Map<?, ?> a) {
            assertThat(stored).as(path).isInstanceOf(Map.class);
            a.forEach((k, v) -> {
                assertThat((Map<String, Object>) stored).as(path).containsKey((String) k);
                assertSubset(v, ((Map<String, Object>) stored).get(k), path + "." + k);
            });
        } else {
            assertThat(String.valueOf(stored)).as(path).isEqualTo(String.valueOf(applied));
        }
    }

    @Test
    void theWorkerPodTemplatesAreAdmittedByTheApiServer() {
        for (DelayQueue dq : applied) {
            String ns = dq.getMetadata().getNamespace();
            int deployments = ShardPlan.ranges(dq.getSpec().getShards(), dq.getSpec().getShardsPerWorker()).size();
            await(dq.getMetadata().getName() + "'s pods").atMost(Duration.ofSeconds(120)).ignoreExceptions().untilAsserted(() -> {
                assertThat(admin.apps().replicaSets().inNamespace(ns).withLabel("app.kubernetes.io/instance", dq.getMetadata().getName())
                        .list().getItems()).hasSizeGreaterThanOrEqualTo(deployments);
                List<Pod> pods = admin.pods().inNamespace(ns).withLabel("app.kubernetes.io/instance", dq.getMetadata().getName()).list().getItems();
                assertThat(pods).hasSizeGreaterThanOrEqualTo(deployments);
                // the scheduler saw them: no node in this cluster, so they wait as Unschedulable
                assertThat(pods).allSatisfy(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("PodScheduled");
                    assertThat(c.getReason()).isEqualTo("Unschedulable");
                }));
            });
            var failedCreates = admin.v1().events().inNamespace(ns).list().getItems().stream()
                    .filter(e -> "FailedCreate".equals(e.getReason())).map(e -> e.getMessage()).toList();
            assertThat(failedCreates).as("pods the API server refused").isEmpty();
        }
    }
}
