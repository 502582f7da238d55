package io.delayq.images.node;

import com.marcnuri.helm.Helm;
import io.delayq.DurationText;
import io.delayq.client.DelayQueueClient;
import io.delayq.images.build.ImageArchives;
import io.delayq.images.operator.ChartOperatorPod;
import io.delayq.kube.cluster.Forward;
import io.delayq.kube.cluster.Node;
import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.task.TaskSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The chart and both images on a one-node cluster built here: the real API server, controller manager and
 * scheduler, and a kubelet running pods on containerd and runc. The image archives built by {@code -Pimage} are
 * imported into containerd, Helm installs the chart (its operator pod runs as the chart's ServiceAccount and must
 * get ready), a DelayQueue's worker pods run and pass their readiness probes, and tasks enqueued on a real Redis
 * are fired by those pods into a Redis stream — also across a worker pod deleted mid-run, which its Deployment
 * replaces with nothing lost. Pods reach the API server and Redis through forwards on the node's pod-network
 * gateway; nothing leaves this machine.
 */
@RealKubernetes
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NodeChartTest {
    private static final String SHOP = "shop";

    private static Optional<String> missing;
    private static Node node;
    private static KubernetesClient client;
    private static LocalRedisServer redis;
    private static Forward apiForward;
    private static Forward redisForward;

    @BeforeAll
    static void startTheNodeAndInstallTheChart(RealCluster cluster) throws java.io.IOException {
        missing = Node.missing(cluster.binaries(), System.getenv());
        if (missing.isPresent()) {
            if ("true".equals(System.getenv("CI"))) {
                fail(missing.get());
            }
            return;
        }
        Path worker = ImageArchives.WORKER.require();
        Path operator = ImageArchives.OPERATOR.require();
        node = Node.start(cluster, List.of(worker, operator));
        client = cluster.adminClient();
        redis = LocalRedisServer.start();
        redisForward = Forward.open(Node.GATEWAY, redis.port());
        apiForward = Forward.open(Node.GATEWAY, cluster.apiPort());
        for (String ns : new String[]{ChartOperatorPod.NAMESPACE, SHOP}) {
            client.resource(ChartOperatorPod.restrictedNamespace(ns)).create();
        }
        // no kube-proxy on this node: the operator reaches the API server at the gateway, as its certificate allows
        Path values = java.nio.file.Files.writeString(cluster.dir().resolve("node-values.yaml"), """
                extraEnv:
                  - name: KUBERNETES_SERVICE_HOST
                    value: "%s"
                  - name: KUBERNETES_SERVICE_PORT
                    value: "%d"
                """.formatted(Node.GATEWAY, apiForward.port()));
        new Helm(ChartOperatorPod.chart()).install().withName(ChartOperatorPod.RELEASE).withNamespace(ChartOperatorPod.NAMESPACE)
                .withKubeConfig(cluster.kubeconfig())
                .set("watchNamespaces[0]", SHOP)
                // the images were imported, not pulled
                .set("image.pullPolicy", "Never")
                .withValuesFile(values)
                .waitReady().withTimeout(300)
                .call();
    }

    @BeforeEach
    void needsANode() {
        assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        for (AutoCloseable c : new AutoCloseable[]{apiForward, redisForward, redis, client}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // best effort
            }
        }
    }

    private static DelayQueueClient producer() {
        return DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
    }

    private static List<Pod> workerPods() {
        return client.pods().inNamespace(SHOP).withLabel("app.kubernetes.io/instance", "orders").list().getItems();
    }

    private static boolean ready(Pod p) {
        return p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    @Test
    @Order(1)
    void theChartsOperatorPodRunsAsItsServiceAccountAndIsReady() {
        List<Pod> pods = client.pods().inNamespace(ChartOperatorPod.NAMESPACE)
                .withLabel("app.kubernetes.io/instance", ChartOperatorPod.RELEASE).list().getItems();

        assertThat(pods).singleElement().satisfies(p -> {
            assertThat(ready(p)).as("operator pod ready: %s", p.getStatus()).isTrue();
            assertThat(p.getSpec().getNodeName()).isEqualTo(Node.NAME);
            assertThat(p.getSpec().getServiceAccountName()).isEqualTo(ChartOperatorPod.RELEASE + "-delayq-operator");
        });
    }

    @Test
    @Order(2)
    void aDelayQueuesWorkerPodsRunAndFireTasks() {
        client.resource(Serialization.unmarshal("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: orders
                  namespace: shop
                spec:
                  shards: 4
                  shardsPerWorker: 2
                  redis:
                    url: redis://%s:%d
                  delivery:
                    type: Stream
                    stream:
                      key: orders-ready
                  autoscaling:
                    mode: Disabled
                  worker:
                    imagePullPolicy: Never
                """.formatted(Node.GATEWAY, redisForward.port()), DelayQueue.class)).create();

        await("the DelayQueue is Ready: its worker pods run and pass their readiness probes").atMost(Duration.ofMinutes(4))
                .ignoreExceptions().until(() -> {
                    DelayQueue dq = client.resources(DelayQueue.class).inNamespace(SHOP).withName("orders").get();
                    return dq.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
                });
        assertThat(workerPods()).hasSize(2).allSatisfy(p -> assertThat(ready(p)).isTrue());
        await("the operator reads the pods' start-up from the kubelet's report: creation to Ready, the slowest of them")
                .atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> {
                    DelayQueue dq = client.resources(DelayQueue.class).inNamespace(SHOP).withName("orders").get();
                    return DurationText.parse(dq.getStatus().getForecast().getPodStartup())
                            .equals(slowestStartup(workerPods()));
                });

        Set<String> ids = IntStream.range(0, 20).mapToObj(i -> "order-" + i).collect(Collectors.toSet());
        try (DelayQueueClient producer = producer()) {
            ids.forEach(id -> producer.enqueue(TaskSpec.of(id).after(Duration.ofSeconds(1)).payload("cancel-if-unpaid")));
        }
        await("the worker pods hand every task to the stream").atMost(Duration.ofMinutes(1)).until(() -> fired().containsAll(ids));
    }

    @Test
    @Order(3)
    void aWorkerPodDeletedMidRunIsReplacedAndNothingIsLost() {
        Set<String> ids = new HashSet<>();
        Instant start = Instant.now();
        try (DelayQueueClient producer = producer()) {
            for (int i = 0; i < 300; i++) {
                String id = "payout-" + i;
                ids.add(id);
                producer.enqueue(TaskSpec.of(id).at(start.plusMillis(50L * i)));
            }
        }
        Pod victim = workerPods().get(0);
        await("some tasks fired before the deletion").atMost(Duration.ofSeconds(30)).until(() -> fired().stream().anyMatch(ids::contains));

        client.pods().inNamespace(SHOP).withName(victim.getMetadata().getName()).delete();

        await("its Deployment replaced it").atMost(Duration.ofMinutes(3)).until(() -> {
            List<Pod> pods = workerPods();
            return pods.stream().noneMatch(p -> p.getMetadata().getName().equals(victim.getMetadata().getName()))
                    && pods.stream().filter(NodeChartTest::ready).count() == 2;
        });
        await("every task fired").atMost(Duration.ofMinutes(2)).until(() -> fired().containsAll(ids));
        try (DelayQueueClient producer = producer()) {
            await("and acked").atMost(Duration.ofSeconds(60)).until(() -> producer.stats().inflight() == 0 && producer.stats().due() == 0);
        }
    }

    private static Duration slowestStartup(List<Pod> pods) {
        return pods.stream().map(p -> Duration.between(Instant.parse(p.getMetadata().getCreationTimestamp()),
                Instant.parse(p.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst().orElseThrow()
                        .getLastTransitionTime()))).max(Duration::compareTo).orElseThrow();
    }

    private static Set<String> fired() {
        try (RedisClient c = RedisClient.create(redis.url()); StatefulRedisConnection<String, String> conn = c.connect()) {
            return conn.sync().xrange("orders-ready", Range.create("-", "+")).stream()
                    .map(StreamMessage::getBody).map(b -> b.get("id")).collect(Collectors.toSet());
        }
    }
}
