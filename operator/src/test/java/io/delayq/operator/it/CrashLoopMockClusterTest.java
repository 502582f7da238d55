package io.delayq.operator.it;

import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.WorkerSpec;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.shard.ShardRange;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Worker pods in CrashLoopBackOff (created in Fabric8's mock API server with the status the kubelet would give
 * them) show on their DelayQueue as Degraded, with the container's last message, through the real operator;
 * the condition clears when the pods run.
 */
@EnableKubernetesMockClient(crud = true)
class CrashLoopMockClusterTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    private static final String NAMESPACE = "crash";
    private static final String NO_HANDLER = "delayq worker: invalid configuration: DELAYQ_DELIVERY: is handler but no TaskHandler is on "
            + "the classpath or in DELAYQ_HANDLER_PATH: looked for META-INF/services/io.delayq.handler.TaskHandler in the worker's class path "
            + "(/app/resources, /app/classes, 41 jars in /app/libs) and DELAYQ_HANDLER_PATH (unset, and /app/handlers does not exist)";

    private DelayQueueOperator operator;

    @BeforeAll
    static void installCrd() throws Exception {
        try (var in = Files.newInputStream(io.delayq.operator.testing.CrdPaths.generated())) {
            client.apiextensions().v1().customResourceDefinitions().load(in).create();
        }
    }

    @BeforeEach
    void startOperator() {
        OperatorSettings settings = OperatorSettings.fromEnv(Map.of("DELAYQ_WATCH_NAMESPACES", NAMESPACE))
                .withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(1));
        operator = DelayQueueOperator.start(client, settings, false);
    }

    @AfterEach
    void stopOperator() {
        operator.close();
    }

    private Optional<Condition> degraded() {
        DelayQueue dq = client.resources(DelayQueue.class).inNamespace(NAMESPACE).withName("orders").get();
        return Optional.ofNullable(dq).map(DelayQueue::getStatus).flatMap(s -> s.getConditions().stream()
                .filter(c -> c.getType().equals("Degraded")).findFirst());
    }

    private Pod workerPod(String name, ShardRange range, boolean crashLooping) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .withLabels(WorkerLabels.forRange("orders", "orders", range)).endMetadata()
                .withNewSpec().addNewContainer().withName("worker").withImage("registry.example.com/shop/orders-worker:1.0.0").endContainer().endSpec();
        return crashLooping
                ? pod.withNewStatus().withPhase("Running").addNewContainerStatus().withName("worker").withRestartCount(5)
                        .withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting().endState()
                        .withNewLastState().withNewTerminated().withExitCode(2).withReason("Error").withMessage(NO_HANDLER + "\n").endTerminated().endLastState()
                        .endContainerStatus().endStatus().build()
                : pod.withNewStatus().withPhase("Running").addNewContainerStatus().withName("worker").withReady(true)
                        .withNewState().withNewRunning().endRunning().endState().endContainerStatus().endStatus().build();
    }

    @Test
    void crashLoopingWorkerPodsMakeTheQueueDegradedWithTheContainersLastMessage() {
        DelayQueue dq = DelayQueues.of("orders", 8, 4, redis.url());
        dq.getMetadata().setNamespace(NAMESPACE);
        dq.getMetadata().setUid(null);
        dq.getMetadata().setGeneration(null);
        WorkerSpec worker = new WorkerSpec();
        worker.setImage("registry.example.com/shop/orders-worker:1.0.0");
        dq.getSpec().setWorker(worker);
        client.resource(dq).create();
        await().atMost(Duration.ofSeconds(30)).until(() -> degraded().map(c -> c.getStatus().equals("False")).orElse(false));

        client.resource(workerPod("orders-0-3-abc", new ShardRange(0, 3), true)).create();
        client.resource(workerPod("orders-4-7-def", new ShardRange(4, 7), true)).create();
        // another queue's crashing pod is not this queue's problem
        Pod other = workerPod("coupons-0-0-xyz", new ShardRange(0, 0), true);
        other.getMetadata().setLabels(WorkerLabels.forRange("coupons", "coupons", new ShardRange(0, 0)));
        client.resource(other).create();

        // the operator may look between the two creations: wait for the look that sees both pods
        await().atMost(Duration.ofSeconds(30)).until(() -> degraded().map(c -> c.getStatus().equals("True")
                && c.getMessage().startsWith("2 worker pods")).orElse(false));
        Condition c = degraded().orElseThrow();
        assertThat(c.getReason()).isEqualTo("WorkerCrashLoop");
        assertThat(c.getMessage()).isEqualTo("2 worker pods (orders-0-3-abc, orders-4-7-def) are in CrashLoopBackOff: exit 2: " + NO_HANDLER);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NAMESPACE).list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo("WorkerCrashLoop");
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains(NO_HANDLER);
                }));

        client.resource(workerPod("orders-0-3-abc", new ShardRange(0, 3), false)).update();
        client.resource(workerPod("orders-4-7-def", new ShardRange(4, 7), false)).update();

        await().atMost(Duration.ofSeconds(30)).until(() -> degraded().map(x -> x.getStatus().equals("False")).orElse(false));
    }
}
