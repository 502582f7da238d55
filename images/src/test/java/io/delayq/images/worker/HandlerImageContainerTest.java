package io.delayq.images.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.images.build.HandlerImage;
import io.delayq.images.build.HandlerImageRecipe;
import io.delayq.images.build.ImageArchives;
import io.delayq.images.build.LoadedImages;
import io.delayq.images.podman.Podman;
import io.delayq.images.podman.RestrictedPodAssertions;
import io.delayq.images.podman.RunningPod;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example handler's image (examples/order-timeout-handler on the stock worker image just built,
 * by each recipe of its README: the Containerfile, and Jib) run as the operator renders a worker pod
 * for a DelayQueue that names it: the stock worker finds the handler the recipe put in its image, and
 * a task goes from a producer through the handler to the order service and is acked, under the
 * restricted settings.
 */
class HandlerImageContainerTest {
    private static final String TAG = "localhost/delayq-order-timeout-worker:test";

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @TempDir
    Path scratch;

    private Podman podman;
    private RunningPod pod;
    private OrderService orders;

    @AfterEach
    void cleanUp() {
        if (pod != null) {
            pod.close();
        }
        if (orders != null) {
            orders.close();
        }
    }

    @ParameterizedTest
    @EnumSource(HandlerImageRecipe.class)
    void theHandlerInTheImageCancelsTheOrderUnderTheWorkerPodsSettings(HandlerImageRecipe recipe) throws Exception {
        podman = Podman.require();
        Path project = HandlerImage.requireProject();
        String worker = LoadedImages.of(ImageArchives.WORKER, podman);
        String image = recipe.image(podman, project, worker, TAG, scratch);

        orders = new OrderService();
        Deployment deployment = WorkerPods.deployment(WorkerPods.delayQueue("order-timeouts", """
                  shards: 8
                  redis:
                    url: %REDIS%
                  delivery:
                    type: Handler
                  worker:
                    image: IMAGE
                    env:
                      - name: ORDER_SERVICE_URL
                        value: ORDERS
                """.replace("IMAGE", image).replace("ORDERS", orders.urlFromContainers()), redis.server().port()), worker);
        Container spec = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(spec.getImage()).isEqualTo(image);

        pod = RunningPod.start(podman, WorkerPods.pod(deployment), "order-timeouts");
        pod.awaitHttp200("http", spec.getReadinessProbe().getHttpGet().getPath(), Duration.ofSeconds(60));
        RestrictedPodAssertions.assertRestricted(pod, "/tmp");
        assertThat(pod.exec("ls", recipe.handlerFolder()).output()).contains(recipe.handlerJar());

        try (DelayQueueClient producer = DelayQueueClient.builder().redis(redis.url()).queue("order-timeouts").shards(8).build()) {
            producer.enqueue(TaskSpec.of("8812").after(Duration.ofMillis(300)));
            await("the handler asks the order service to cancel order 8812").atMost(Duration.ofSeconds(60))
                    .until(() -> !orders.cancels().isEmpty());
            await("the task is acked").atMost(Duration.ofSeconds(30)).until(() -> producer.stats().inflight() == 0 && producer.stats().due() == 0);
            assertThat(producer.stats().dead()).isZero();
        }
        List<OrderService.Cancel> cancels = orders.cancels();
        assertThat(cancels).hasSize(1);
        assertThat(cancels.get(0).order()).isEqualTo("8812");
        assertThat(cancels.get(0).idempotencyKey()).isEqualTo("8812");
        assertThat(cancels.get(0).body()).contains("\"attempt\":1");
        assertThat(pod.logs()).contains("order-timeout handler for queue order-timeouts");
    }
}
