package io.delayq.operator.it;

import io.delayq.client.DelayQueueClient;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.resource.DelayQueueStatus;
import io.delayq.operator.resource.WorkerDeploymentStatus;
import io.delayq.operator.testing.DelayQueues;
import io.delayq.operator.testing.MockCluster;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Forecast autoscaling through the real SDK operator (Fabric8's mock API server, CRUD mode) and a real
 * redis-server: tasks enqueued minutes ahead scale the worker Deployment up before they are due.
 */
@EnableKubernetesMockClient(crud = true)
class ForecastMockClusterTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    static KubernetesClient client;
    static KubernetesMockServer server;
    private static final AtomicInteger NAMES = new AtomicInteger();

    private DelayQueueOperator operator;
    private String namespace;

    @BeforeAll
    static void installCrd() throws Exception {
        MockCluster.installCrd(client);
        MockCluster.serveDiscovery(server, true);
    }

    @BeforeEach
    void startOperator() {
        namespace = "forecast" + NAMES.incrementAndGet();
        operator = MockCluster.startWatching(client, namespace);
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

    private Optional<DelayQueueStatus> status(String name) {
        return Optional.ofNullable(client.resources(DelayQueue.class).inNamespace(namespace).withName(name).get()).map(DelayQueue::getStatus);
    }

    private Optional<Condition> condition(String name, String type) {
        return status(name).flatMap(s -> s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst());
    }

    private List<Deployment> deployments() {
        return client.apps().deployments().inNamespace(namespace).list().getItems();
    }

    private List<Event> events() {
        return client.v1().events().inNamespace(namespace).list().getItems();
    }

    private static AutoscalingSpec forecast(int min, int max, String warmup, String horizon, double perReplicaPerSecond) {
        AutoscalingSpec a = new AutoscalingSpec();
        a.setMode(AutoscalingMode.Forecast);
        a.setMinReplicas(min);
        a.setMaxReplicas(max);
        a.setWarmup(warmup);
        a.setHorizon(horizon);
        a.setTargetTasksPerReplicaPerSecond(perReplicaPerSecond);
        return a;
    }

    @Test
    void tasksEnqueuedMinutesAheadScaleTheWorkersUpBeforeTheyAreDue() {
        DelayQueue dq = DelayQueues.of("wave", 2, null, redis.url());
        dq.getSpec().setAutoscaling(forecast(0, 5, "60s", "5m", 1));
        create(dq);
        // an idle queue under Forecast with minReplicas 0: nothing due within the horizon, no pods
        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().size() == 1 && deployments().get(0).getSpec().getReplicas() == 0
                && status("wave").map(DelayQueueStatus::getForecast).isPresent());
        assertThat(status("wave").orElseThrow().getWorkerDeployments().get(0).getScaleReason())
                .isEqualTo("no due backlog and nothing waits for a future time");

        // 600 tasks due in 3 minutes: 2/s over the 5m window, two replicas at 1/s each
        Instant dueAt = Instant.now().plus(Duration.ofMinutes(3));
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("wave").shards(2).build()) {
            producer.enqueueAll(IntStream.range(0, 600).mapToObj(i -> TaskSpec.of("wave-" + i).at(dueAt)).toList());
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> deployments().get(0).getSpec().getReplicas() == 2);
        assertThat(Instant.now()).as("scaled before the tasks are due").isBefore(dueAt);

        await().atMost(Duration.ofSeconds(30)).until(() -> status("wave").map(s -> s.getWorkerDeployments().get(0).getReplicas() == 2).orElse(false));
        DelayQueueStatus s = status("wave").orElseThrow();
        WorkerDeploymentStatus worker = s.getWorkerDeployments().get(0);
        assertThat(worker.getScaleReason()).isEqualTo("600 tasks due within 5m (2/s) at 1/s per replica need 2");
        assertThat(worker.getLastScaleTime()).isNotNull();
        assertThat(s.getForecast().getWindows()).extracting(w -> w.getWithin() + "=" + w.getTasks())
                .containsExactly("1m=0", "5m=600", "15m=600", "1h=600");
        assertThat(Instant.parse(s.getForecast().getNextDueAt())).isBetween(dueAt.minusSeconds(1), dueAt.plusSeconds(1));
        assertThat(s.getBacklog().getDue()).as("nothing is due yet: the backlog rule alone would keep zero pods").isZero();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(events()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("ScaledWorkers");
            assertThat(e.getMessage()).isEqualTo("scaled wave-worker-0-1 from 0 to 2 replicas: 600 tasks due within 5m (2/s) at 1/s per replica need 2");
        }));
    }

    @Test
    void aHorizonShorterThanTheWarmupIsAnInvalidSpecAndCreatesNoWorkers() {
        // ISO-8601, which the CRD's CEL rule cannot compare: the operator refuses it
        DelayQueue dq = DelayQueues.of("rushed", 2, null, redis.url());
        dq.getSpec().setAutoscaling(forecast(0, 5, "PT2M", "90s", 1));
        create(dq);

        await().atMost(Duration.ofSeconds(30)).until(() -> condition("rushed", "Degraded")
                .map(c -> "True".equals(c.getStatus()) && "InvalidSpec".equals(c.getReason())).orElse(false));
        assertThat(condition("rushed", "Degraded").orElseThrow().getMessage())
                .contains("spec.autoscaling.horizon", "spec.autoscaling.warmup");
        await().atMost(Duration.ofSeconds(10)).until(() -> events().stream()
                .anyMatch(e -> "InvalidSpec".equals(e.getReason()) && e.getMessage().contains("spec.autoscaling.horizon")));
        assertThat(deployments()).as("no Deployment touched").isEmpty();
    }
}
