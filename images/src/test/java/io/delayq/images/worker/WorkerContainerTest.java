package io.delayq.images.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.images.build.ImageArchives;
import io.delayq.images.build.LoadedImages;
import io.delayq.images.podman.Podman;
import io.delayq.images.podman.RestrictedPodAssertions;
import io.delayq.images.podman.RunningPod;
import io.delayq.operator.resource.DelayQueue;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stock worker image run as the operator renders a worker pod (user 10001, read-only root
 * filesystem with the pod's emptyDir on /tmp, every capability dropped, no privilege escalation,
 * seccomp RuntimeDefault, the memory limit, the operator's environment), against a real Redis and
 * a real webhook receiver on the host.
 */
class WorkerContainerTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private Podman podman;
    private String image;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void loadImage() {
        podman = Podman.require();
        image = LoadedImages.of(ImageArchives.WORKER, podman);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private RunningPod start(Deployment deployment) {
        RunningPod pod = RunningPod.start(podman, WorkerPods.pod(deployment), "worker");
        toClose.add(pod);
        Container c = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
        // the kubelet's probes: the same paths and port names
        pod.awaitHttp200(c.getStartupProbe().getHttpGet().getPort().getStrVal(), c.getStartupProbe().getHttpGet().getPath(), Duration.ofSeconds(60));
        pod.awaitHttp200(c.getReadinessProbe().getHttpGet().getPort().getStrVal(), c.getReadinessProbe().getHttpGet().getPath(), Duration.ofSeconds(60));
        return pod;
    }

    /** A worker pod as the operator renders it for a webhook DelayQueue "orders" that posts to the receiver. */
    private RunningPod startWebhookWorker(Receiver receiver) {
        return start(WorkerPods.deployment(webhookQueue("orders", receiver.urlFromContainers(), redis.server().port()), image));
    }

    /** Orders order-0, order-1, ... due one step apart from now on. */
    private static List<String> scheduleOrders(DelayQueueClient producer, int count, Duration step) {
        List<String> ids = IntStream.range(0, count).mapToObj(i -> "order-" + i).toList();
        for (int i = 0; i < count; i++) {
            producer.enqueue(TaskSpec.of(ids.get(i)).after(step.multipliedBy(i)).payload("{\"action\":\"cancel-if-unpaid\"}"));
        }
        return ids;
    }

    private Receiver receiver(long workMillis) throws Exception {
        Receiver r = new Receiver(workMillis);
        toClose.add(r);
        return r;
    }

    private DelayQueueClient producer(String queue, int shards) {
        DelayQueueClient c = DelayQueueClient.builder().redis(redis.url()).queue(queue).shards(shards).build();
        toClose.add(c);
        return c;
    }

    private static DelayQueue webhookQueue(String name, String url, int redisPort) {
        return WorkerPods.delayQueue(name, """
                  shards: 4
                  lease: 5s
                  shutdownGrace: 20s
                  concurrency: 16
                  redis:
                    url: %REDIS%
                  delivery:
                    type: Webhook
                    webhook:
                      url: URL
                """.replace("URL", url), redisPort);
    }

    @Test
    void runsUnderTheWorkerPodsSecuritySettings() throws Exception {
        Receiver receiver = receiver(0);
        RunningPod pod = startWebhookWorker(receiver);

        RestrictedPodAssertions.assertRestricted(pod, "/tmp");
        assertThat(pod.get("http", "/healthz").status()).isEqualTo(200);
        Podman.Result handlers = pod.exec("ls", "-d", "/app/handlers");
        assertThat(handlers.ok()).as("the stock image's handler folder: %s", handlers.output()).isTrue();
        assertThat(pod.oomKilled()).isFalse();
    }

    @Test
    void firesTasksThroughTheWebhookAndReportsThemOnMetrics() throws Exception {
        Receiver receiver = receiver(0);
        RunningPod pod = startWebhookWorker(receiver);
        DelayQueueClient producer = producer("orders", 4);

        List<String> ids = scheduleOrders(producer, 40, Duration.ofMillis(50));

        await("every task reaches the receiver").atMost(Duration.ofSeconds(60))
                .until(() -> receiver.attemptsById().keySet().containsAll(ids));
        await("every task acked in Redis").atMost(Duration.ofSeconds(30)).until(() -> producer.stats().inflight() == 0
                && producer.stats().due() == 0 && producer.stats().scheduled() == 0);
        assertThat(receiver.received()).hasSize(ids.size()).allSatisfy(d -> assertThat(d.attempt()).isEqualTo(1));
        await("/metrics counts the acks").atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            RunningPod.Response metrics = pod.get("http", "/metrics");
            assertThat(metrics.status()).isEqualTo(200);
            assertThat(metrics.body()).containsPattern("(?m)^delayq_tasks_total\\{[^}]*outcome=\"acked\"[^}]*} 40\\.0$")
                    .contains("delayq_worker_info{").contains("jvm_threads_live_threads");
        });
    }

    @Test
    void sigtermFinishesTheTasksInFlightAndExitsZero() throws Exception {
        Receiver receiver = receiver(3_000);
        RunningPod pod = startWebhookWorker(receiver);
        DelayQueueClient producer = producer("orders", 4);
        int total = 30;
        for (int i = 0; i < total; i++) {
            producer.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(1)));
        }
        // the in-flight set is settled: handlers are busy and no delivery arrived over the last poll (3 s answers
        // keep the started tasks running, and the claim buffer stays empty while none has finished)
        int[] seen = {-1};
        await("handlers are busy").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
            int now = receiver.received().size();
            boolean settled = now >= 4 && now == seen[0] && receiver.working() == now;
            seen[0] = now;
            return settled;
        });
        int inFlightAtStop = receiver.received().size();

        RunningPod.Stopped stopped = pod.stop();

        // 0, not 137: the worker exited by itself before the kubelet's SIGKILL
        assertThat(stopped.exitCode()).as("exit code after SIGTERM; log:\n%s", pod.logs()).isZero();
        List<String> received = receiver.received().stream().map(Receiver.Delivery::id).toList();
        assertThat(received).as("no new task started after SIGTERM").hasSize(inFlightAtStop);
        assertThat(receiver.answered()).as("every task in flight at SIGTERM finished").containsExactlyInAnyOrderElementsOf(received);
        var stats = producer.stats();
        assertThat(stats.inflight()).as("nothing left in flight: every finished task was acked").isZero();
        assertThat(stats.due()).as("the rest is still due, nothing lost").isEqualTo(total - inFlightAtStop);
        assertThat(stats.dead()).isZero();
    }

    @Test
    void killNineAndARestartFireEveryTaskWithDuplicatesOnlyOnLaterAttempts() throws Exception {
        Receiver receiver = receiver(300);
        RunningPod pod = startWebhookWorker(receiver);
        DelayQueueClient producer = producer("orders", 4);
        List<String> ids = scheduleOrders(producer, 300, Duration.ofMillis(10));
        await("the worker is busy").atMost(Duration.ofSeconds(30)).until(() -> receiver.received().size() >= 60 && receiver.working() >= 4);

        pod.kill();
        assertThat(pod.exitCode()).as("SIGKILL").isEqualTo(137);
        assertThat(producer.stats().inflight()).as("claimed tasks are left in flight by the kill").isPositive();
        // claimed by the killed worker (an attempt is counted at the claim), delivered or not: the claim buffer may
        // hold tasks that had not started yet, whose first delivery is then attempt 2
        Set<String> claimedAtKill = new HashSet<>();
        for (int shard = 0; shard < 4; shard++) {
            claimedAtKill.addAll(TestQueue.reading(producer, redis.admin()).inFlight(shard).keySet());
        }
        Set<String> deliveredBeforeKill = receiver.received().stream().map(Receiver.Delivery::id).collect(Collectors.toSet());
        // delivered but still in flight in Redis: the worker died before it acked them, so they are delivered again
        List<String> cutOff = deliveredBeforeKill.stream().filter(claimedAtKill::contains).toList();

        pod.restart();
        pod.awaitHttp200("http", "/readyz", Duration.ofSeconds(60));
        await("every task fired after the restart (leases of the killed worker expire after 5 s)").atMost(Duration.ofSeconds(90))
                .until(() -> receiver.attemptsById().keySet().containsAll(ids));
        await("all acked").atMost(Duration.ofSeconds(30)).until(() -> producer.stats().inflight() == 0 && producer.stats().due() == 0);

        receiver.attemptsById().forEach((id, attempts) -> {
            assertThat(attempts).as("attempts of %s", id).doesNotHaveDuplicates();
            int first = deliveredBeforeKill.contains(id) || !claimedAtKill.contains(id) ? 1 : 2;
            assertThat(attempts.stream().sorted().toList().get(0)).as("first attempt of %s", id).isEqualTo(first);
        });
        assertThat(cutOff).as("tasks in the receiver at the kill").isNotEmpty()
                .allSatisfy(id -> assertThat(receiver.attemptsById().get(id)).as("%s re-delivered", id).contains(1, 2));
        assertThat(producer.stats().dead()).isZero();
    }
}
