package io.delayq.operator.it;

import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.CredentialsSecretRef;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.TlsCaSecretRef;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.TlsRedis;
import io.delayq.operator.workers.ConfigHash;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.shard.ShardRange;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real SDK operator against Fabric8's mock API server (CRUD mode) and a real redis-server.
 * <p>
 * What the mock cannot show, and where it is covered instead:
 * <ul>
 *   <li>garbage collection: it keeps owned objects after their owner is deleted, so cascading
 *       deletion rests on the owner references checked in {@code WorkerDeploymentTest} and on a real
 *       cluster ({@code K3sEndToEndTest});</li>
 *   <li>the scale subresource (/scale): the CRD's scale paths are checked in the generated YAML,
 *       and {@code kubectl scale} is a write of spec.replicas, which these tests do directly;</li>
 *   <li>schema and CEL validation: {@code CrdValidationTest} evaluates the generated rules;</li>
 *   <li>a Deployment controller: no pods, so tests write a Deployment's status the way the
 *       controller would when they need "ready" workers.</li>
 * </ul>
 */
@EnableKubernetesMockClient(crud = true)
class MockClusterOperatorTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private DelayQueueOperator operator;
    private String namespace;

    @BeforeAll
    static void installCrd() throws Exception {
        io.delayq.operator.testing.MockCluster.installCrd(client);
        io.delayq.operator.testing.MockCluster.serveDiscovery(server, true);
    }

    @BeforeEach
    void startOperator() {
        namespace = "ns" + NAMES.incrementAndGet();
        // Each test watches only its own namespace: the operator must ignore the others.
        operator = io.delayq.operator.testing.MockCluster.startWatching(client, namespace);
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    private DelayQueue create(DelayQueue dq) {
        dq.getMetadata().setNamespace(namespace);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        return client.resource(dq).create();
    }

    private DelayQueue fetch(String name) {
        return client.resources(DelayQueue.class).inNamespace(namespace).withName(name).get();
    }

    private Optional<DelayQueueStatus> status(String name) {
        return Optional.ofNullable(fetch(name)).map(DelayQueue::getStatus);
    }

    private Optional<Condition> condition(String name, String type) {
        return status(name).flatMap(s -> s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst());
    }

    private List<Deployment> deployments() {
        return client.apps().deployments().inNamespace(namespace).list().getItems();
    }

    private List<String> deploymentNames() {
        return deployments().stream().map(d -> d.getMetadata().getName()).sorted().toList();
    }

    private List<Event> events() {
        return client.v1().events().inNamespace(namespace).list().getItems();
    }

    private void edit(String name, java.util.function.Consumer<DelayQueue> change) {
        io.delayq.operator.testing.SpecEdits.edit(client, namespace, name, change);
    }

    @Test
    void createsWorkerDeploymentsAndReportsTheBacklogThatIsInRedis() throws Exception {
        int dueLow = 0;
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(8).build()) {
            for (int i = 0; i < 25; i++) {
                producer.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(5)));
                dueLow += Sharding.shardOf("order-" + i, 8) <= 3 ? 1 : 0;
            }
            for (int i = 0; i < 7; i++) {
                producer.enqueue(TaskSpec.of("later-" + i).after(Duration.ofMinutes(30)));
            }
        }
        create(DelayQueues.of("orders", 8, 4, redis.url()));

        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("orders-worker-0-3", "orders-worker-4-7")));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("orders").map(DelayQueueStatus::getBacklog).isPresent());

        DelayQueue dq = fetch("orders");
        DelayQueueStatus s = dq.getStatus();
        assertThat(s.getObservedGeneration()).isEqualTo(dq.getMetadata().getGeneration());
        assertThat(s.getBacklog().getDue()).isEqualTo(25);
        assertThat(s.getBacklog().getScheduled()).isEqualTo(7);
        assertThat(s.getWorkerDeployments()).extracting(w -> w.getBacklog().getDue()).containsExactly((long) dueLow, 25L - dueLow);
        assertThat(condition("orders", "Degraded").orElseThrow().getStatus()).isEqualTo("False");
        assertThat(s.getSelector()).isEqualTo("app.kubernetes.io/name=delayq-worker,app.kubernetes.io/instance=orders");

        Deployment low = client.apps().deployments().inNamespace(namespace).withName("orders-worker-0-3").get();
        assertThat(low.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(dq.getMetadata().getUid()));
        assertThat(low.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .extracting(EnvVar::getName, EnvVar::getValue)
                .contains(org.assertj.core.groups.Tuple.tuple("DELAYQ_SHARD_FROM", "0"), org.assertj.core.groups.Tuple.tuple("DELAYQ_SHARD_TO", "3"));
        assertThat(client.services().inNamespace(namespace).withName("orders-worker-metrics").get()).isNotNull();
        assertThat(client.policy().v1().podDisruptionBudget().inNamespace(namespace).withName("orders-worker").get()).isNotNull();

        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + operator.metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("delayq_queue_due_tasks{delayqueue=\"orders\",namespace=\"" + namespace
                + "\",queue=\"orders\",worker=\"orders-worker-4-7\"} " + (25 - dueLow) + ".0");
        assertThat(metrics).as("the SDK's own metrics sit next to ours").contains("operator_sdk_");
    }

    @Test
    void internalAutoscalingSizesDeploymentsFromTheirBacklog() {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("burst").shards(2).build()) {
            for (int i = 0; i < 40; i++) {
                producer.enqueue(TaskSpec.of("t-" + i).at(Instant.now().minusSeconds(1)));
            }
        }
        DelayQueue dq = DelayQueues.of("burst", 2, null, redis.url());
        dq.getSpec().getAutoscaling().setTargetDuePerReplica(10);
        dq.getSpec().getAutoscaling().setMaxReplicas(3);
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().stream()
                .anyMatch(d -> d.getSpec().getReplicas() == 3));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("burst")
                .map(s -> s.getWorkerDeployments().get(0).getLastScaleTime() != null || s.getReplicas() == 3).orElse(false));
        assertThat(status("burst").orElseThrow().getReplicas()).isEqualTo(3);
    }

    @Test
    void aSpecChangeGivesTheWorkersANewConfigHash() {
        create(DelayQueues.of("rolling", 4, null, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("rolling-worker-0-3")));
        String before = podHash(deployments().get(0));

        edit("rolling", dq -> dq.getSpec().setBatchSize(250));

        await().atMost(Duration.ofSeconds(30)).until(() -> !podHash(deployments().get(0)).equals(before));
        Deployment after = deployments().get(0);
        assertThat(after.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("DELAYQ_BATCH_SIZE=250"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Objects.equals(status("rolling").orElseThrow().getObservedGeneration(),
                fetch("rolling").getMetadata().getGeneration()));
    }

    private static String podHash(Deployment d) {
        return d.getSpec().getTemplate().getMetadata().getAnnotations().get(ConfigHash.POD_TEMPLATE_ANNOTATION);
    }

    @Test
    void changingShardsPerWorkerRemovesTheStaleDeployments() {
        create(DelayQueues.of("split", 8, 4, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("split-worker-0-3", "split-worker-4-7")));

        edit("split", dq -> dq.getSpec().setShardsPerWorker(3));

        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(
                List.of("split-worker-0-2", "split-worker-3-5", "split-worker-6-7")));
        await().atMost(Duration.ofSeconds(30)).until(() -> status("split").map(s -> s.getWorkerDeployments().size() == 3).orElse(false));
    }

    @Test
    void suspendScalesToZeroWithAPausedCondition() {
        create(DelayQueues.of("sleepy", 4, 2, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().size() == 2
                && deployments().stream().allMatch(d -> d.getSpec().getReplicas() == 1));

        edit("sleepy", dq -> dq.getSpec().setSuspend(true));

        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().stream().allMatch(d -> d.getSpec().getReplicas() == 0));
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("sleepy", "Paused").map(c -> "True".equals(c.getStatus())).orElse(false));
        assertThat(condition("sleepy", "Ready").orElseThrow().getReason()).isEqualTo("Suspended");
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "Suspended".equals(e.getReason())));

        edit("sleepy", dq -> dq.getSpec().setSuspend(false));

        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().stream().allMatch(d -> d.getSpec().getReplicas() == 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("sleepy", "Paused").map(c -> "False".equals(c.getStatus())).orElse(false));
    }

    @Test
    void readyOnceEveryWorkerDeploymentIsRolledOut() {
        create(DelayQueues.of("steady", 2, 1, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().size() == 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("steady", "Ready")
                .map(c -> "WorkersNotReady".equals(c.getReason())).orElse(false));

        for (Deployment d : deployments()) {
            // What the Deployment controller and kubelet would report for one ready pod.
            d.setStatus(new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration())
                    .withReplicas(1).withUpdatedReplicas(1).withReadyReplicas(1).withAvailableReplicas(1).build());
            client.resource(d).updateStatus();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("steady", "Ready").map(c -> "True".equals(c.getStatus())).orElse(false));
        assertThat(status("steady").orElseThrow().getWorkers()).isEqualTo("2/2");
        assertThat(condition("steady", "Progressing").orElseThrow().getStatus()).isEqualTo("False");
    }

    @Test
    void anUnreachableRedisIsDegradedWithAnEvent() {
        create(DelayQueues.of("lost", 2, null, "redis://127.0.0.1:" + LocalRedisServer.freePort()));

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("lost", "Degraded")
                .map(c -> "True".equals(c.getStatus()) && "RedisUnavailable".equals(c.getReason())).orElse(false));
        assertThat(deploymentNames()).as("workers are created anyway: they wait for Redis themselves").containsExactly("lost-worker-0-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream()
                .anyMatch(e -> "RedisUnavailable".equals(e.getReason()) && "Warning".equals(e.getType())));
        assertThat(events().stream().filter(e -> "RedisUnavailable".equals(e.getReason())).map(Event::getMessage).toList())
                .as("one Event for a lasting problem, not one per check").hasSize(1);
    }

    @Test
    void aSpecTheWorkersWouldRefuseIsDegradedAndCreatesNoWorkers() {
        // past the CRD's CEL rule, which reads Go durations only: a 1s lease in ISO-8601 with a 200ms window
        DelayQueue dq = DelayQueues.of("hasty", 2, null, redis.url());
        dq.getSpec().setLease("PT1S");
        dq.getSpec().setClaimAhead("200ms");
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("hasty", "Degraded")
                .map(c -> "True".equals(c.getStatus()) && "InvalidSpec".equals(c.getReason())).orElse(false));
        assertThat(condition("hasty", "Degraded").orElseThrow().getMessage()).contains("spec.claimAhead", "spec.lease", "100ms");
        assertThat(condition("hasty", "Ready").orElseThrow().getStatus()).isEqualTo("False");
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream()
                .anyMatch(e -> "InvalidSpec".equals(e.getReason()) && "Warning".equals(e.getType())));
        assertThat(deploymentNames()).as("no workers that would refuse to start").isEmpty();

        edit("hasty", q -> q.getSpec().setClaimAhead("100ms"));
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("hasty-worker-0-1")));
    }

    @Test
    void anEvictingRedisIsDegradedAndMissingPersistenceIsAWarning() {
        try (LocalRedisServer lru = LocalRedisServer.start("--maxmemory-policy", "allkeys-lru")) {
            create(DelayQueues.of("evictable", 2, null, lru.url()));

            await().atMost(Duration.ofSeconds(30)).until(() -> condition("evictable", "Degraded")
                    .map(c -> "UnsafeEvictionPolicy".equals(c.getReason())).orElse(false));
            assertThat(condition("evictable", "Degraded").orElseThrow().getMessage()).contains("allkeys-lru", "noeviction");
            assertThat(status("evictable").orElseThrow().getRedis().getWarnings()).singleElement().asString().contains("persistence is off");
            await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().map(Event::getReason).toList()
                    .containsAll(List.of("UnsafeEvictionPolicy", "RedisPersistenceOff")));
            assertThat(events()).filteredOn(e -> "RedisPersistenceOff".equals(e.getReason())).singleElement()
                    .satisfies(e -> assertThat(e.getType()).isEqualTo("Warning"));
        }
    }

    @Test
    void aMissingSecretIsDegradedUntilItAppears() {
        DelayQueue dq = DelayQueues.of("locked", 2, null, redis.url());
        dq.getSpec().getRedis().setCredentialsSecret(new CredentialsSecretRef("locked-redis"));
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("locked", "Degraded")
                .map(c -> "True".equals(c.getStatus()) && "SecretMissing".equals(c.getReason())).orElse(false));
        assertThat(condition("locked", "Degraded").orElseThrow().getMessage()).contains("locked-redis", "spec.redis.credentialsSecret.name");
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "SecretMissing".equals(e.getReason())));

        // The test server has no password, so any password works for it.
        client.resource(new SecretBuilder().withNewMetadata().withName("locked-redis").withNamespace(namespace).endMetadata()
                .addToData("password", java.util.Base64.getEncoder().encodeToString("unused".getBytes(StandardCharsets.UTF_8))).build()).create();

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("locked", "Degraded").map(c -> "False".equals(c.getStatus())).orElse(false));
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "Recovered".equals(e.getReason())));
    }

    @Test
    void aTlsCaSecretIsCheckedTrustedMountedAndItsRotationRollsTheWorkers() throws Exception {
        try (TlsRedis tls = TlsRedis.startOrSkip()) {
            DelayQueue dq = DelayQueues.of("private-ca", 2, null, tls.tlsUrl());
            dq.getSpec().getRedis().setTlsCaSecret(new TlsCaSecretRef("redis-ca"));
            create(dq);

            await().atMost(Duration.ofSeconds(30)).until(() -> condition("private-ca", "Degraded")
                    .map(c -> "True".equals(c.getStatus()) && "SecretMissing".equals(c.getReason())).orElse(false));
            assertThat(condition("private-ca", "Degraded").orElseThrow().getMessage()).contains("redis-ca", "spec.redis.tlsCaSecret.name");
            await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "SecretMissing".equals(e.getReason())
                    && e.getMessage().contains("spec.redis.tlsCaSecret.name")));

            client.resource(new SecretBuilder().withNewMetadata().withName("redis-ca").withNamespace(namespace).endMetadata()
                    .addToData("ca.crt", base64(tls.caPem())).build()).create();

            // Healthy again only once the operator read the backlog over TLS, trusting the Secret's CA.
            await().atMost(Duration.ofSeconds(30)).until(() -> condition("private-ca", "Degraded").map(c -> "False".equals(c.getStatus())).orElse(false)
                    && status("private-ca").map(DelayQueueStatus::getBacklog).isPresent());
            await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("private-ca-worker-0-1")));
            Deployment worker = deployments().get(0);
            assertThat(worker.getSpec().getTemplate().getSpec().getVolumes())
                    .anySatisfy(v -> assertThat(v.getSecret() == null ? null : v.getSecret().getSecretName()).isEqualTo("redis-ca"));
            assertThat(worker.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                    .anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("DELAYQ_REDIS_TLS_CA=/etc/delayq/redis-tls-ca/ca.crt"));
            String before = podHash(worker);

            // A CA change as it is rolled out: the Secret holds the old and the new CA for a while.
            String bundle = base64(tls.caPem() + tls.otherCaPem());
            client.secrets().inNamespace(namespace).withName("redis-ca").edit(s -> {
                s.getData().put("ca.crt", bundle);
                return s;
            });

            await().atMost(Duration.ofSeconds(30)).until(() -> !podHash(deployments().get(0)).equals(before));
            assertThat(condition("private-ca", "Degraded").orElseThrow().getStatus()).isEqualTo("False");
        }
    }

    private static String base64(String text) {
        return java.util.Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private void secret(String name, Map<String, String> values) {
        SecretBuilder b = new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata();
        values.forEach((k, v) -> b.addToData(k, java.util.Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        client.resource(b.build()).create();
    }

    @Test
    void kafkaDeliveryAndAnOutboxReachTheWorkersByReferenceAndTheirSecretsAreChecked() {
        DelayQueue dq = DelayQueues.of("reminders", 2, null, redis.url());
        dq.getSpec().setDelivery(io.delayq.operator.testing.Deliveries.kafkaWithEverything());
        dq.getSpec().setOutbox(io.delayq.operator.testing.Deliveries.outboxWithEverything());
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("reminders", "Degraded")
                .map(c -> "True".equals(c.getStatus()) && "SecretMissing".equals(c.getReason())).orElse(false));
        assertThat(condition("reminders", "Degraded").orElseThrow().getMessage())
                .contains("kafka-auth", "spec.delivery.kafka.credentialsSecret.name");
        await().atMost(Duration.ofSeconds(30)).until(() -> !deployments().isEmpty());
        var pod = deployments().get(0).getSpec().getTemplate().getSpec();
        Map<String, String> refs = new java.util.TreeMap<>();
        pod.getContainers().get(0).getEnv().stream().filter(e -> e.getValueFrom() != null).forEach(e -> refs.put(e.getName(),
                e.getValueFrom().getSecretKeyRef().getName() + "/" + e.getValueFrom().getSecretKeyRef().getKey()));
        assertThat(refs).containsEntry("DELAYQ_KAFKA_USERNAME", "kafka-auth/user").containsEntry("DELAYQ_KAFKA_PASSWORD", "kafka-auth/pass")
                .containsEntry("DELAYQ_OUTBOX_USER", "shop-db/login").containsEntry("DELAYQ_OUTBOX_PASSWORD", "shop-db/secret");
        assertThat(pod.getContainers().get(0).getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("DELAYQ_DELIVERY");
            assertThat(e.getValue()).isEqualTo("kafka");
        });
        assertThat(pod.getVolumes()).extracting(v -> v.getSecret() == null ? v.getName() : v.getSecret().getSecretName())
                .contains("kafka-ca", "kafka-client");

        String kafkaPassword = "kafka-pw-" + java.util.UUID.randomUUID();
        String databasePassword = "db-pw-" + java.util.UUID.randomUUID();
        secret("kafka-auth", Map.of("user", "producer", "pass", kafkaPassword));
        secret("kafka-ca", Map.of("ca.pem", io.delayq.operator.testing.FixtureCa.pem()));
        secret("kafka-client", Map.of("chain.pem", io.delayq.operator.testing.FixtureCa.pem(),
                "key.pem", "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIGYlVUSdnWyUfGqQmP5C8kS0kGeQ9mSOzRzjI6xyMcZ5\n-----END PRIVATE KEY-----\n"));
        secret("shop-db", Map.of("login", "relay", "secret", databasePassword));

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("reminders", "Degraded").map(c -> "False".equals(c.getStatus())).orElse(false));
        String everything = Serialization.asYaml(deployments()) + Serialization.asYaml(fetch("reminders")) + Serialization.asYaml(events());
        assertThat(everything).doesNotContain(kafkaPassword).doesNotContain(databasePassword);
    }

    @Test
    void anOutboxRelayInItsOwnDeploymentReplacesTheWorkersRelaysAndSwitchingModesRemovesTheOtherForm() {
        secret("shop-db", Map.of("login", "relay", "secret", "db-pw"));
        DelayQueue dq = DelayQueues.of("shop", 2, null, redis.url());
        dq.getSpec().setDelivery(streamDelivery());
        dq.getSpec().setOutbox(io.delayq.operator.testing.Deliveries.outboxInItsOwnDeployment());
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("shop-outbox-relay", "shop-worker-0-1")));
        Deployment relay = deployment("shop-outbox-relay");
        var container = relay.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getArgs()).containsExactly("outbox-relay");
        assertThat(container.getImage()).isEqualTo(deployment("shop-worker-0-1").getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertThat(relay.getSpec().getReplicas()).isEqualTo(2);
        assertThat(relay.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(fetch("shop").getMetadata().getUid()));
        assertThat(container.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("DELAYQ_OUTBOX_PASSWORD");
            assertThat(e.getValueFrom().getSecretKeyRef().getName() + "/" + e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("shop-db/secret");
        });
        assertThat(outboxVariables("shop-worker-0-1")).as("the workers run no relay").isEmpty();
        await().atMost(Duration.ofSeconds(30)).until(() -> status("shop").map(st -> st.getWorkerDeployments() != null
                && st.getWorkerDeployments().size() == 1).orElse(false));
        assertThat(status("shop").orElseThrow().getWorkerDeployments()).extracting(w -> w.getName()).containsExactly("shop-worker-0-1");

        // a new database password rolls the relay
        String relayHash = podHash(relay);
        client.secrets().inNamespace(namespace).withName("shop-db").edit(sec -> {
            sec.getData().put("secret", java.util.Base64.getEncoder().encodeToString("db-pw-2".getBytes(StandardCharsets.UTF_8)));
            return sec;
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> !podHash(deployment("shop-outbox-relay")).equals(relayHash));

        edit("shop", q -> {
            q.getSpec().getOutbox().getRelay().setMode(io.delayq.operator.resource.OutboxRelayMode.Workers);
            q.getSpec().getOutbox().getRelay().setReplicas(1);
            q.getSpec().getOutbox().getRelay().setResources(null);
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("shop-worker-0-1")));
        await().atMost(Duration.ofSeconds(30)).until(() -> outboxVariables("shop-worker-0-1").contains("DELAYQ_OUTBOX_URL"));

        edit("shop", q -> q.getSpec().getOutbox().getRelay().setMode(io.delayq.operator.resource.OutboxRelayMode.Deployment));
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("shop-outbox-relay", "shop-worker-0-1")));
        await().atMost(Duration.ofSeconds(30)).until(() -> outboxVariables("shop-worker-0-1").isEmpty());
    }

    @Test
    void theOutboxRelaysReadinessReachesTheStatusAndTheReadyCondition() {
        secret("shop-db", Map.of("login", "relay", "secret", "db-pw"));
        DelayQueue dq = DelayQueues.of("relayed", 2, null, redis.url());
        dq.getSpec().setDelivery(streamDelivery());
        dq.getSpec().setOutbox(io.delayq.operator.testing.Deliveries.outboxInItsOwnDeployment());
        create(dq);
        await().atMost(Duration.ofSeconds(30)).until(() -> deploymentNames().equals(List.of("relayed-outbox-relay", "relayed-worker-0-1")));
        markReady(deployment("relayed-worker-0-1"), 1);

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("relayed", "Ready")
                .map(c -> "OutboxRelayNotReady".equals(c.getReason())).orElse(false));
        assertThat(status("relayed").orElseThrow().getOutboxRelay().getReadyReplicas()).isZero();
        assertThat(status("relayed").orElseThrow().getOutboxRelay().getReplicas()).isEqualTo(2);

        markReady(deployment("relayed-outbox-relay"), 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("relayed", "Ready").map(c -> "True".equals(c.getStatus())).orElse(false));
        assertThat(status("relayed").orElseThrow().getOutboxRelay().getReadyReplicas()).isEqualTo(2);
        assertThat(status("relayed").orElseThrow().getOutboxRelay().isReady()).isTrue();

        // one relay pod stops passing its readiness probe
        markReady(deployment("relayed-outbox-relay"), 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("relayed", "Ready")
                .map(c -> "OutboxRelayNotReady".equals(c.getReason()) && c.getMessage().contains("1 of 2")).orElse(false));
        assertThat(status("relayed").orElseThrow().getOutboxRelay().isReady()).isFalse();
        assertThat(status("relayed").orElseThrow().getPhase()).isEqualTo("Progressing");
    }

    /** What the Deployment controller and kubelet would report with {@code ready} of its pods ready. */
    private void markReady(Deployment d, int ready) {
        int replicas = d.getSpec().getReplicas();
        d.setStatus(new DeploymentStatusBuilder().withObservedGeneration(d.getMetadata().getGeneration())
                .withReplicas(replicas).withUpdatedReplicas(replicas).withReadyReplicas(ready).withAvailableReplicas(ready).build());
        client.resource(d).updateStatus();
    }

    private Deployment deployment(String name) {
        return client.apps().deployments().inNamespace(namespace).withName(name).get();
    }

    private List<String> outboxVariables(String deployment) {
        return deployment(deployment).getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                .map(e -> e.getName()).filter(n -> n.startsWith("DELAYQ_OUTBOX_")).toList();
    }

    private static io.delayq.operator.resource.DeliverySpec streamDelivery() {
        io.delayq.operator.resource.DeliverySpec delivery = new io.delayq.operator.resource.DeliverySpec();
        delivery.setType(io.delayq.operator.resource.DeliveryType.Stream);
        io.delayq.operator.resource.StreamSpec stream = new io.delayq.operator.resource.StreamSpec();
        stream.setKey("shop:ready");
        delivery.setStream(stream);
        return delivery;
    }

    @Test
    void aSecretValueNeverAppearsInDeploymentsStatusEventsOrLogs() throws Exception {
        String password = "pw-" + java.util.UUID.randomUUID();
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        PrintStream originalOut = System.out;
        System.setErr(new PrintStream(new TeeStream(originalErr, logs), true));
        System.setOut(new PrintStream(new TeeStream(originalOut, logs), true));
        try (LocalRedisServer locked = LocalRedisServer.start("--requirepass", password)) {
            client.resource(new SecretBuilder().withNewMetadata().withName("vault").withNamespace(namespace).endMetadata()
                    .addToData("password", java.util.Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8))).build()).create();
            DelayQueue good = DelayQueues.of("guarded", 2, null, locked.url());
            good.getSpec().getRedis().setCredentialsSecret(new CredentialsSecretRef("vault"));
            create(good);
            // A second queue that fails: error paths are where secrets usually leak.
            DelayQueue bad = DelayQueues.of("guarded-down", 2, null, "redis://127.0.0.1:" + LocalRedisServer.freePort());
            bad.getSpec().getRedis().setCredentialsSecret(new CredentialsSecretRef("vault"));
            create(bad);

            await().atMost(Duration.ofSeconds(30)).until(() -> status("guarded").map(DelayQueueStatus::getBacklog).isPresent()
                    && condition("guarded", "Degraded").map(c -> "False".equals(c.getStatus())).orElse(false));
            await().atMost(Duration.ofSeconds(30)).until(() -> condition("guarded-down", "Degraded")
                    .map(c -> "RedisUnavailable".equals(c.getReason())).orElse(false));
            await().atMost(Duration.ofSeconds(10)).until(() -> events().stream().anyMatch(e -> "RedisUnavailable".equals(e.getReason())));

            String everything = Serialization.asYaml(deployments()) + Serialization.asYaml(fetch("guarded"))
                    + Serialization.asYaml(fetch("guarded-down")) + Serialization.asYaml(events())
                    + Serialization.asYaml(client.services().inNamespace(namespace).list());
            assertThat(everything).contains("secretKeyRef").contains("vault").doesNotContain(password);
            assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(password);
        } finally {
            System.setErr(originalErr);
            System.setOut(originalOut);
        }
    }

    @Test
    void ignoresNamespacesItDoesNotWatch() {
        DelayQueue elsewhere = DelayQueues.of("elsewhere", 2, null, redis.url());
        elsewhere.getMetadata().setNamespace("unwatched");
        elsewhere.getMetadata().setUid(null);
        client.resource(elsewhere).create();
        create(DelayQueues.of("here", 2, null, redis.url()));

        await().atMost(Duration.ofSeconds(30)).until(() -> status("here").isPresent() && deploymentNames().equals(List.of("here-worker-0-1")));
        assertThat(client.apps().deployments().inNamespace("unwatched").list().getItems()).isEmpty();
        assertThat(client.resources(DelayQueue.class).inNamespace("unwatched").withName("elsewhere").get().getStatus()).isNull();
    }

    @Test
    void deletingADelayQueueDropsItsMetrics() throws Exception {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("gone").shards(1).build()) {
            producer.enqueue(TaskSpec.of("x").at(Instant.now()));
        }
        create(DelayQueues.of("gone", 1, null, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> scrape().contains("delayqueue=\"gone\""));

        client.resources(DelayQueue.class).inNamespace(namespace).withName("gone").delete();

        await().atMost(Duration.ofSeconds(30)).until(() -> !scrape().contains("delayqueue=\"gone\""));
    }

    private String scrape() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + operator.metricsPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Copies what is written to the console into a buffer as well. */
    private static final class TeeStream extends java.io.OutputStream {
        private final java.io.OutputStream a;
        private final java.io.OutputStream b;

        TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws java.io.IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }

    private static final String NO_HANDLER = "delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on "
            + "the classpath or in DELAYQ_HANDLER_PATH: looked for META-INF/services/io.delayq.handler.TaskHandler in the worker's class path "
            + "(/app/resources, /app/classes, 41 jars in /app/libs) and DELAYQ_HANDLER_PATH (unset, and /app/handlers does not exist)";

    /** Earlier log lines the kubelet copies with FallbackToLogsOnError: they must stay in the pod. */
    static final String EARLIER_LOG = "delayq worker starting\nDELAYQ_REDIS_URL=redis://app:s3cr3t@redis:6379\n";

    /** A worker pod as the kubelet reports it: running and ready, or in CrashLoopBackOff after exiting 2 with the worker's line. */
    private Pod workerPod(String delayQueue, String name, ShardRange range, boolean crashLooping) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .withLabels(WorkerLabels.forRange(delayQueue, delayQueue, range)).endMetadata()
                .withNewSpec().addNewContainer().withName("worker").withImage("registry.example.com/shop/orders-worker:1.0.0").endContainer().endSpec();
        return crashLooping
                ? pod.withNewStatus().withPhase("Running").addNewContainerStatus().withName("worker").withRestartCount(5)
                        .withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState()
                        .withNewLastState().withNewTerminated().withExitCode(2).withReason("Error").withMessage(EARLIER_LOG + NO_HANDLER + "\n").endTerminated().endLastState()
                        .endContainerStatus().endStatus().build()
                : pod.withNewStatus().withPhase("Running").addNewContainerStatus().withName("worker").withReady(true)
                        .withNewState().withNewRunning().endRunning().endState().endContainerStatus().endStatus().build();
    }

    @Test
    void crashLoopingWorkerPodsMakeTheQueueDegradedWithTheContainersLastMessage() {
        create(DelayQueues.of("orders", 8, 4, redis.url()));
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("orders", "Degraded").map(c -> c.getStatus().equals("False")).orElse(false));

        client.resource(workerPod("orders", "orders-0-3-abc", new ShardRange(0, 3), true)).create();
        client.resource(workerPod("orders", "orders-4-7-def", new ShardRange(4, 7), true)).create();
        client.resource(workerPod("coupons", "coupons-0-0-xyz", new ShardRange(0, 0), true)).create(); // another queue's pod

        // the operator may look between the two creations: wait for the look that sees both pods
        await().atMost(Duration.ofSeconds(30)).until(() -> condition("orders", "Degraded").map(c -> c.getStatus().equals("True")
                && c.getMessage().startsWith("2 worker pods")).orElse(false));
        Condition degraded = condition("orders", "Degraded").orElseThrow();
        assertThat(degraded.getReason()).isEqualTo("WorkerCrashLoop");
        assertThat(degraded.getMessage()).isEqualTo("2 worker pods (orders-0-3-abc, orders-4-7-def) are in CrashLoopBackOff: exit 2: " + NO_HANDLER);
        assertThat(condition("orders", "Ready").orElseThrow().getReason()).isEqualTo("WorkerCrashLoop");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("WorkerCrashLoop");
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getMessage()).contains(NO_HANDLER);
        }));
        assertThat(events()).allSatisfy(e -> assertThat(e.getMessage()).doesNotContain("s3cr3t"));

        client.resource(workerPod("orders", "orders-0-3-abc", new ShardRange(0, 3), false)).update();
        client.resource(workerPod("orders", "orders-4-7-def", new ShardRange(4, 7), false)).update();

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("orders", "Degraded").map(c -> c.getStatus().equals("False")).orElse(false));
    }
}
