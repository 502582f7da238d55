package io.delayq.images.operator;

import io.delayq.client.DelayQueueClient;
import io.delayq.images.build.ImageArchives;
import io.delayq.images.build.LoadedImages;
import io.delayq.images.podman.Podman;
import io.delayq.images.podman.PodmanPod;
import io.delayq.images.podman.RestrictedPodAssertions;
import io.delayq.images.podman.RunningPod;
import io.delayq.images.worker.Receiver;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerDeployment;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole chain in containers: the operator image, run with the pod the chart renders (its
 * security settings, environment, leader election and probes), reconciles a DelayQueue against
 * Fabric8's mock API server (CRUD mode, with the shipped CRD) and a real Redis; the worker
 * Deployment it writes is started as a container exactly as its pod template says (the test plays
 * the kubelet and the Deployment controller, which the mock has not), fires a task to a real
 * webhook receiver, and the DelayQueue reports Ready.
 */
class OperatorContainerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String SHOP = "shop";

    private static MockApiServer api;
    private static KubernetesClient client;

    private Podman podman;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void startTheMockApiServer() {
        api = MockApiServer.start();
        client = api.client();
    }

    @AfterAll
    static void stopTheMockApiServer() {
        if (api != null) {
            api.close();
        }
    }

    @BeforeEach
    void loadImages() {
        podman = Podman.require();
        LoadedImages.of(ImageArchives.OPERATOR, podman);
        LoadedImages.of(ImageArchives.WORKER, podman);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** The downward API of the chart's pod: its namespace. */
    private static String downwardApi(String name, EnvVarSource source) {
        return source.getFieldRef() != null && "metadata.namespace".equals(source.getFieldRef().getFieldPath())
                ? ChartOperatorPod.NAMESPACE : null;
    }

    private RunningPod startProbed(PodmanPod pod, Container spec, String name) {
        RunningPod running = RunningPod.start(podman, pod, name);
        toClose.add(running);
        running.awaitHttp200(spec.getStartupProbe().getHttpGet().getPort().getStrVal(), spec.getStartupProbe().getHttpGet().getPath(), Duration.ofSeconds(90));
        running.awaitHttp200(spec.getReadinessProbe().getHttpGet().getPort().getStrVal(), spec.getReadinessProbe().getHttpGet().getPath(), Duration.ofSeconds(90));
        return running;
    }

    @Test
    void theOperatorContainerReconcilesAQueueWhoseWorkerContainerFiresATask() throws Exception {
        Deployment chart = ChartOperatorPod.render(client, Map.of("watchNamespaces[0]", SHOP));
        Container operatorSpec = chart.getSpec().getTemplate().getSpec().getContainers().get(0);
        String workerImage = operatorSpec.getEnv().stream().filter(e -> "DELAYQ_WORKER_IMAGE".equals(e.getName()))
                .map(EnvVar::getValue).findFirst().orElseThrow();
        assertThat(operatorSpec.getImage()).isEqualTo(LoadedImages.of(ImageArchives.OPERATOR, podman));
        assertThat(workerImage).as("the chart's default worker image is the one built").isEqualTo(LoadedImages.of(ImageArchives.WORKER, podman));

        RunningPod operator = startProbed(PodmanPod.of(chart.getSpec().getTemplate().getSpec(), ChartOperatorPod.CONTAINER,
                OperatorContainerTest::downwardApi, api.clientEnvForContainers(ChartOperatorPod.NAMESPACE)), operatorSpec, "operator");
        RestrictedPodAssertions.assertRestricted(operator, "/tmp");
        await("the operator holds the chart's leader-election Lease").atMost(Duration.ofSeconds(60))
                .until(() -> !client.leases().inNamespace(ChartOperatorPod.NAMESPACE).list().getItems().isEmpty());

        Receiver receiver = new Receiver(0);
        toClose.add(receiver);
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
                    url: redis://%s:%d
                  delivery:
                    type: Webhook
                    webhook:
                      url: %s
                """.formatted(PodmanPod.HOST, redis.server().port(), receiver.urlFromContainers()), DelayQueue.class)).create();

        await("the operator creates the worker Deployment").atMost(Duration.ofSeconds(60))
                .until(() -> client.apps().deployments().inNamespace(SHOP).withName("orders-worker-0-3").get() != null);
        Deployment workers = client.apps().deployments().inNamespace(SHOP).withName("orders-worker-0-3").get();
        Container workerSpec = workers.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(workerSpec.getImage()).isEqualTo(workerImage);
        await("not Ready while no worker pod is").atMost(Duration.ofSeconds(60))
                .until(() -> ready().map(c -> "False".equals(c.getStatus()) && "WorkersNotReady".equals(c.getReason())).orElse(false));

        // The kubelet: the pod template as written by the operator container, no Secrets to resolve.
        RunningPod worker = startProbed(PodmanPod.of(workers.getSpec().getTemplate().getSpec(), WorkerDeployment.CONTAINER,
                (name, source) -> null, Map.of()), workerSpec, "worker");
        RestrictedPodAssertions.assertRestricted(worker, "/tmp");
        // The Deployment controller: one updated, ready pod.
        workers.setStatus(new DeploymentStatusBuilder().withObservedGeneration(workers.getMetadata().getGeneration())
                .withReplicas(1).withUpdatedReplicas(1).withReadyReplicas(1).withAvailableReplicas(1).build());
        client.resource(workers).updateStatus();

        await("the DelayQueue reports Ready").atMost(Duration.ofSeconds(60))
                .until(() -> ready().map(c -> "True".equals(c.getStatus()) && "WorkersReady".equals(c.getReason())).orElse(false));
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build()) {
            producer.enqueue(TaskSpec.of("order-8812").after(Duration.ofMillis(200)).payload("cancel-if-unpaid"));
            await("the worker container fires the task").atMost(Duration.ofSeconds(30))
                    .until(() -> receiver.attemptsById().containsKey("order-8812"));
            await("and acks it").atMost(Duration.ofSeconds(30)).until(() -> producer.stats().inflight() == 0 && producer.stats().due() == 0);
        }
        assertThat(operator.get("http-metrics", "/metrics").body()).contains("delayq_queue_due_tasks{");

        RunningPod.Stopped stopped = operator.stop();
        // 143: the JVM ended by SIGTERM after its shutdown hook ran (137 would be the kubelet's SIGKILL after the grace period)
        assertThat(stopped.exitCode()).as("the operator's exit code after SIGTERM; log:\n%s", operator.logs()).isEqualTo(143);
        assertThat(operator.logs()).contains("stopped leading on shutdown");
    }

    private static Optional<Condition> ready() {
        DelayQueue dq = client.resources(DelayQueue.class).inNamespace(SHOP).withName("orders").get();
        if (dq == null || dq.getStatus() == null || dq.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return dq.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
    }
}
