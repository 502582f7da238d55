package io.delayq.operator.it;

import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.testing.CrdPaths;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskSpec;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * End to end on a real Kubernetes (K3s in a container): the generated CRD installs and its
 * CEL rules reject a bad resource, the operator (in-process, against the K3s API) creates the worker
 * Deployments and reports the backlog of a real Redis, the scale subresource drives replicas, and
 * garbage collection removes the Deployments with their DelayQueue: the parts the mock API server
 * cannot show. The worker pods are not waited for here: images/.../k3s/K3sChartTest installs the
 * chart with the built images and runs them.
 * Skipped where no Docker engine is available.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sEndToEndTest {
    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

    private static KubernetesClient client;
    private static LocalRedisServer redis;
    private static DelayQueueOperator operator;

    @BeforeAll
    static void installAndStart() throws Exception {
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(K3S.getKubeConfigYaml())).build();
        try (InputStream in = Files.newInputStream(CrdPaths.generated())) {
            CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().load(in).create();
            client.apiextensions().v1().customResourceDefinitions().resource(crd)
                    .waitUntilCondition(c -> c.getStatus() != null && c.getStatus().getConditions().stream()
                            .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 60, TimeUnit.SECONDS);
        }
        client.resource(new NamespaceBuilder().withNewMetadata().withName("shop").endMetadata().build()).create();
        // The operator runs in this JVM, so a Redis on this machine's loopback is reachable for it.
        redis = LocalRedisServer.start();
        operator = DelayQueueOperator.start(client, OperatorSettings.fromEnv(Map.of("DELAYQ_WATCH_NAMESPACES", "shop"))
                .withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(2)), false);
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void runsAQueueOnARealCluster() {
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(8).build()) {
            for (int i = 0; i < 10; i++) {
                producer.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(1)));
            }
        }
        DelayQueue dq = DelayQueues.of("orders", 8, 4, redis.url());
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        dq.getSpec().getAutoscaling().setMode(AutoscalingMode.Disabled);
        client.resource(dq).create();

        await().atMost(Duration.ofSeconds(60)).until(() -> client.apps().deployments().inNamespace("shop").withLabel("app.kubernetes.io/instance", "orders").list().getItems().size() == 2);
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            DelayQueue live = client.resources(DelayQueue.class).inNamespace("shop").withName("orders").get();
            return live.getStatus() != null && live.getStatus().getBacklog() != null && live.getStatus().getBacklog().getDue() == 10;
        });

        // The scale subresource, as kubectl scale, an HPA or KEDA use it.
        client.resources(DelayQueue.class).inNamespace("shop").withName("orders").scale(3);
        await().atMost(Duration.ofSeconds(60)).until(() -> client.apps().deployments().inNamespace("shop").withLabel("app.kubernetes.io/instance", "orders").list().getItems().stream()
                .allMatch(d -> d.getSpec().getReplicas() == 3));

        // Garbage collection follows the owner references.
        client.resources(DelayQueue.class).inNamespace("shop").withName("orders").delete();
        await().atMost(Duration.ofSeconds(90)).until(() -> client.apps().deployments().inNamespace("shop").withLabel("app.kubernetes.io/instance", "orders").list().getItems().isEmpty());
    }

    @Test
    void theApiServerEnforcesTheCelRules() {
        DelayQueue bad = DelayQueues.of("bad", 4, 8, redis.url());
        bad.getMetadata().setUid(null);
        bad.getMetadata().setGeneration(null);

        assertThatThrownBy(() -> client.resource(bad).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.shardsPerWorker must be between 1 and spec.shards");
        assertThat(client.resources(DelayQueue.class).inNamespace("shop").withName("bad").get()).isNull();
    }

    @Test
    void shardsGrowButDoNotShrink() {
        DelayQueue dq = DelayQueues.of("growing", 4, null, redis.url());
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        dq.getSpec().getAutoscaling().setMode(AutoscalingMode.Disabled);
        client.resource(dq).create();
        await().atMost(Duration.ofSeconds(60)).until(() -> client.apps().deployments().inNamespace("shop").withName("growing-worker-0-3").get() != null);

        assertThatThrownBy(() -> client.resources(DelayQueue.class).inNamespace("shop").withName("growing").edit(live -> {
            live.getSpec().setShards(2);
            return live;
        })).hasMessageContaining("spec.shards may grow but not shrink");

        // The API server's CEL rule lets a grow through; the operator moves the (here: no) tasks and ends on one
        // Deployment over the new layout's 16 shards, the old one retired.
        client.resources(DelayQueue.class).inNamespace("shop").withName("growing").edit(live -> {
            live.getSpec().setShards(16);
            return live;
        });
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            DelayQueue live = client.resources(DelayQueue.class).inNamespace("shop").withName("growing").get();
            return live.getStatus() != null && live.getStatus().getResharding() != null && live.getStatus().getResharding().isFinished()
                    && client.apps().deployments().inNamespace("shop").withName("growing-worker-0-15").get() != null
                    && client.apps().deployments().inNamespace("shop").withName("growing-worker-0-3").get() == null;
        });
    }
}
