package io.delayq.images.bench;

import io.delayq.images.build.ImageArchives;
import io.delayq.images.operator.ChartOperatorPod;
import io.delayq.images.operator.MockApiServer;
import io.delayq.images.podman.Podman;
import io.delayq.images.podman.PodmanPod;
import io.delayq.images.podman.RunningPod;
import io.delayq.images.worker.WorkerPods;
import io.delayq.localredis.LocalRedisServer;
import io.fabric8.kubernetes.api.model.apps.Deployment;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Image sizes and start-up time to the first 200 of {@code /readyz}, printed, not asserted: the
 * worker image and the operator image, each run as its pod says (the operator against the mock API
 * server), beside the same worker jar started by the host's JDK in the same run (the baseline:
 * what the container itself adds). Run: {@code images/measure.sh}.
 */
public final class StartupBenchmark {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private static final Duration LIMIT = Duration.ofMinutes(2);
    /** What .ci/install-containers.sh imports. */
    private static final String TEST_BASE = "localhost/delayq-test-jre:17";

    private StartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        // Maven's JVM has set up java.util.logging already; the mock server logs every request at INFO
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        Podman podman = Podman.require();
        String workerImage = podman.load(ImageArchives.WORKER.require());
        String operatorImage = podman.load(ImageArchives.OPERATOR.require());
        Path repo = Path.of(System.getProperty("delayq.repo.root", "..")).normalize();

        List<String> rows = new ArrayList<>();
        try (LocalRedisServer redis = LocalRedisServer.start(); MockApiServer api = MockApiServer.start()) {
            List<Long> jvm = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                jvm.add(workerJarOnTheHost(repo, redis));
            }
            rows.add(row("worker jar, host JDK (baseline)", jvm));

            Deployment workers = WorkerPods.deployment(WorkerPods.delayQueue("bench", """
                      shards: 4
                      redis:
                        url: %REDIS%
                      delivery:
                        type: Webhook
                        webhook:
                          url: http://10.0.2.2:9/tasks
                    """, redis.port()), workerImage);
            List<Long> worker = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                worker.add(container(podman, WorkerPods.pod(workers), "http"));
            }
            rows.add(row("worker image, worker pod settings", worker));

            Deployment operator = ChartOperatorPod.render(api.client(), Map.of("watchNamespaces[0]", "shop"));
            PodmanPod operatorPod = PodmanPod.of(operator.getSpec().getTemplate().getSpec(), ChartOperatorPod.CONTAINER,
                    (name, source) -> ChartOperatorPod.NAMESPACE, api.clientEnvForContainers(ChartOperatorPod.NAMESPACE));
            List<Long> op = new ArrayList<>();
            for (int i = 0; i < runs; i++) {
                op.add(container(podman, operatorPod, "http-metrics"));
            }
            rows.add(row("operator image, chart's pod, mock API server", op));
        }

        System.out.println();
        System.out.printf("start-up to the first 200 of /readyz, %d runs each (ms; median, min, max):%n", runs);
        rows.forEach(System.out::println);
        System.out.println();
        System.out.println("image sizes (podman's uncompressed size; the archive holds the compressed layers):");
        String base = System.getProperty("image.base", "");
        boolean testBase = podman.run(List.of("image", "exists", TEST_BASE)).ok();
        long baseSize = testBase && base.startsWith("tar://") ? size(podman, TEST_BASE) : 0;
        for (var image : List.of(Map.entry("worker", workerImage), Map.entry("operator", operatorImage))) {
            Path archive = (image.getKey().equals("worker") ? ImageArchives.WORKER : ImageArchives.OPERATOR).require();
            long size = size(podman, image.getValue());
            String beyondBase = baseSize > 0 ? String.format(", %.1f MB beyond the base", (size - baseSize) / 1e6) : "";
            System.out.printf("  %-10s %-50s %7.1f MB  (archive %6.1f MB%s)%n", image.getKey(), image.getValue(),
                    size / 1e6, Files.size(archive) / 1e6, beyondBase);
        }
        if (testBase) {
            System.out.printf("  %-10s %-50s %7.1f MB  (the test base%s)%n", "base", TEST_BASE,
                    size(podman, TEST_BASE) / 1e6, base.isEmpty() ? "" : ": " + base);
        }
    }

    private static long workerJarOnTheHost(Path repo, LocalRedisServer redis) throws Exception {
        int port = LocalRedisServer.freePort();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:MaxRAMPercentage=75", "-jar", repo.resolve("app/target/delayq.jar").toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "bench", "DELAYQ_SHARDS", "4",
                "DELAYQ_DELIVERY", "webhook", "DELAYQ_WEBHOOK_URL", "http://127.0.0.1:9/tasks", "DELAYQ_HTTP_PORT", String.valueOf(port)));
        long start = System.nanoTime();
        Process p = pb.start();
        try {
            return untilReady(start, () -> status("http://127.0.0.1:" + port + "/readyz"));
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    private static long container(Podman podman, PodmanPod pod, String port) throws Exception {
        long start = System.nanoTime();
        try (RunningPod running = RunningPod.start(podman, pod, "bench")) {
            int hostPort = running.hostPort(port);
            return untilReady(start, () -> status("http://127.0.0.1:" + hostPort + "/readyz"));
        }
    }

    private static long untilReady(long startNanos, IntSupplier status) throws InterruptedException {
        while (status.getAsInt() != 200) {
            if (System.nanoTime() - startNanos > LIMIT.toNanos()) {
                throw new IllegalStateException("not ready within " + LIMIT);
            }
            Thread.sleep(10);
        }
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(500)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private static long size(Podman podman, String image) {
        return Long.parseLong(podman.run(List.of("image", "inspect", "--format", "{{.Size}}", image)).output().strip());
    }

    private static String row(String what, List<Long> millis) {
        List<Long> sorted = millis.stream().sorted().toList();
        return String.format("  %-48s %6d %6d %6d", what, sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1));
    }
}
