package io.delayq.kube;

import io.delayq.client.DelayQueueClient;
import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.operator.resource.AutoscalingMode;
import io.delayq.operator.resource.AutoscalingSpec;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerLabels;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Forecast autoscaling on a real API server: a DelayQueue at zero replicas with a wave scheduled a minute and a
 * half ahead has its worker Deployment raised before the wave is due (with the Event and the reason in the status),
 * and lowered back to zero after the wave was fired (by an embedded worker: this suite's cluster runs no worker pods).
 */
@RealKubernetes
class ForecastOnApiServerTest {
    private static final String NS = "forecast";
    private static final String QUEUE = "wave";
    private static final int WAVE = 240;

    private static KubernetesClient admin;
    private static LocalRedisServer redis;
    private static ChartOperator operator;

    @BeforeAll
    static void start(RealCluster cluster) {
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

    private static Deployment worker() {
        List<Deployment> all = admin.apps().deployments().inNamespace(NS).withLabel(WorkerLabels.INSTANCE, QUEUE).list().getItems();
        assertThat(all).hasSize(1);
        return all.get(0);
    }

    private static int replicas() {
        return worker().getSpec().getReplicas();
    }

    @Test
    void theFleetIsRaisedBeforeTheWaveIsDueAndLoweredAfterIt() {
        DelayQueue dq = Queues.of(NS, QUEUE, 4, 4, redis.url());
        AutoscalingSpec scaling = dq.getSpec().getAutoscaling();
        scaling.setMode(AutoscalingMode.Forecast);
        scaling.setMinReplicas(0);
        scaling.setMaxReplicas(4);
        scaling.setWarmup("20s");
        scaling.setHorizon("2m");
        // 240 tasks within the 2-minute window: 2 tasks a second, at 1 a second per replica, need 2 replicas
        scaling.setTargetTasksPerReplicaPerSecond(1.0);
        scaling.setScaleDownStabilization("10s");
        admin.resource(dq).create();
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> replicas() == 0);

        Instant due;
        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue(QUEUE).shards(4).build()) {
            due = Instant.now().plus(Duration.ofSeconds(90));  // Redis runs on this machine: one clock
            List<TaskSpec> wave = new ArrayList<>();
            for (int i = 0; i < WAVE; i++) {
                wave.add(TaskSpec.of("coupon-" + i).at(due));
            }
            producer.enqueueAll(wave);
        }

        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> replicas() == 2);
        assertThat(Instant.now()).as("raised before the wave is due").isBefore(due);
        // the status and the Event follow the scale within a backlog check
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
            assertThat(admin.v1().events().inNamespace(NS).list().getItems()).anySatisfy(e -> {
                assertThat(e.getInvolvedObject().getName()).isEqualTo(QUEUE);
                assertThat(e.getReason()).isEqualTo("ScaledWorkers");
                assertThat(e.getMessage()).contains("to 2").contains("due within");
            });
            DelayQueue live = admin.resources(DelayQueue.class).inNamespace(NS).withName(QUEUE).get();
            assertThat(live.getStatus().getWorkerDeployments()).anySatisfy(w -> assertThat(w.getScaleReason()).contains("due within"));
            assertThat(live.getStatus().getForecast()).isNotNull();
        });

        // the wave fires (here in this JVM), and with nothing left ahead the fleet goes back to zero
        AtomicInteger fired = new AtomicInteger();
        Map<String, String> env = Map.of(WorkerSettings.REDIS_URL.name(), redis.url(), WorkerSettings.QUEUE.name(), QUEUE,
                WorkerSettings.SHARDS.name(), "4");
        try (Worker worker = Worker.startEmbedded(WorkerConfig.embedded(env), task -> fired.incrementAndGet())) {
            await().atMost(Duration.ofSeconds(150)).until(() -> fired.get() >= WAVE);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> replicas() == 0);
        }
        assertThat(fired.get()).isEqualTo(WAVE);
    }
}
