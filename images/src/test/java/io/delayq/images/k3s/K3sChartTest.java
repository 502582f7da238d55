package io.delayq.images.k3s;

import com.marcnuri.helm.Helm;
import io.delayq.client.DelayQueueClient;
import io.delayq.images.build.ImageArchives;
import io.delayq.images.operator.ChartOperatorPod;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.task.TaskSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The chart and both images on a real Kubernetes (K3s in Docker): the image archives built by
 * {@code -Pimage} are imported into K3s, both namespaces enforce the "restricted" Pod Security
 * Standard, Helm installs the chart (CRD, RBAC, the operator Deployment, which must get ready),
 * Redis runs in the cluster, and a DelayQueue becomes Ready once the kubelet runs its worker pod;
 * a task enqueued through a port-forward is fired by that pod into a Redis stream.
 * Skipped where no Docker engine exists (these machines); {@code .github/workflows/images-k3s.yml}
 * runs it.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sChartTest {
    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.31.4-k3s1"));

    private static final String SHOP = "shop";
    private static KubernetesClient client;

    @BeforeAll
    static void importImagesAndInstallTheChart() throws Exception {
        importImage(ImageArchives.WORKER.require(), "worker");
        importImage(ImageArchives.OPERATOR.require(), "operator");
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(K3S.getKubeConfigYaml())).build();
        for (String ns : new String[]{ChartOperatorPod.NAMESPACE, SHOP}) {
            client.resource(ChartOperatorPod.restrictedNamespace(ns)).create();
        }
        client.load(Objects.requireNonNull(K3sChartTest.class.getResourceAsStream("/k3s/redis.yaml"))).inNamespace(SHOP).create();

        new Helm(ChartOperatorPod.chart()).install().withName(ChartOperatorPod.RELEASE).withNamespace(ChartOperatorPod.NAMESPACE)
                .withKubeConfigContents(K3S.getKubeConfigYaml())
                .set("watchNamespaces[0]", SHOP)
                // the images were imported, not pulled
                .set("image.pullPolicy", "Never")
                .waitReady().withTimeout(300)
                .call();
        await("Redis runs in the cluster").atMost(Duration.ofMinutes(3))
                .until(() -> ready(client.apps().deployments().inNamespace(SHOP).withName("redis").get()));
    }

    private static void importImage(Path archive, String name) throws Exception {
        String inside = "/tmp/" + name + "-image.tar";
        K3S.copyFileToContainer(MountableFile.forHostPath(archive.toAbsolutePath()), inside);
        ExecResult imported = K3S.execInContainer("ctr", "-n", "k8s.io", "images", "import", inside);
        assertThat(imported.getExitCode()).as("ctr images import %s: %s %s", name, imported.getStdout(), imported.getStderr()).isZero();
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theChartsOperatorRunsAQueueWhoseWorkerPodFiresATask() throws Exception {
        client.resource(Serialization.unmarshal("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: orders
                  namespace: shop
                spec:
                  shards: 4
                  shardsPerWorker: 4
                  redis:
                    url: redis://redis.shop.svc.cluster.local:6379
                  delivery:
                    type: Stream
                    stream:
                      key: orders-ready
                  worker:
                    imagePullPolicy: Never
                """, DelayQueue.class)).create();

        await("the DelayQueue is Ready: its worker pod runs and passes its readiness probe").atMost(Duration.ofMinutes(3))
                .until(() -> {
                    DelayQueue dq = client.resources(DelayQueue.class).inNamespace(SHOP).withName("orders").get();
                    return dq != null && dq.getStatus() != null && dq.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
                });

        try (LocalPortForward forward = client.services().inNamespace(SHOP).withName("redis").portForward(6379)) {
            String url = "redis://127.0.0.1:" + forward.getLocalPort();
            try (DelayQueueClient producer = DelayQueueClient.builder().redis(url).queue("orders").shards(4).build();
                 RedisClient redis = RedisClient.create(url);
                 StatefulRedisConnection<String, String> conn = redis.connect()) {
                producer.enqueue(TaskSpec.of("order-8812").after(Duration.ofSeconds(1)).payload("cancel-if-unpaid"));
                await("the worker pod hands the task to the stream").atMost(Duration.ofMinutes(1))
                        .until(() -> conn.sync().xlen("orders-ready") == 1);
                assertThat(conn.sync().xrange("orders-ready", Range.create("-", "+")).get(0).getBody())
                        .containsEntry("id", "order-8812").containsEntry("payload", "cancel-if-unpaid");
                await("and acks it").atMost(Duration.ofSeconds(30)).until(() -> producer.stats().inflight() == 0 && producer.stats().due() == 0);
            }
        }
    }

    private static boolean ready(Deployment d) {
        return d != null && d.getStatus() != null && Objects.requireNonNullElse(d.getStatus().getReadyReplicas(), 0) >= 1;
    }
}
