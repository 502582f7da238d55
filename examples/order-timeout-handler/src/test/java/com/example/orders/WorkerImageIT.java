package com.example.orders;

import com.example.orders.FakeOrderService.State;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The guide's step 6: this project's {@code Containerfile} on top of the stock worker image, run as a real
 * container (podman + runc) that fires a task through the handler in {@code /app/handlers}.
 *
 * <p>Runs where a stock worker image exists locally: {@code -Ddelayq.worker.image=NAME} (or the variable
 * {@code DELAYQ_WORKER_IMAGE}) and {@code podman} on PATH; skipped otherwise. The image build of the worker
 * (CI's container job) passes the name of the image it just built.
 */
class WorkerImageIT {
    private static final Path PROJECT = Path.of(System.getProperty("project.target", "target")).toAbsolutePath().getParent();
    private String baseImage;

    @BeforeEach
    void needsTheStockImage() {
        baseImage = System.getProperty("delayq.worker.image", System.getenv("DELAYQ_WORKER_IMAGE"));
        assumeTrue(baseImage != null && !baseImage.isBlank(), "no stock worker image named (-Ddelayq.worker.image)");
        assumeTrue(onPath("podman"), "podman is not installed");
    }

    @Test
    void theCustomImageFiresTheTaskThroughItsHandler() throws Exception {
        String image = "localhost/order-timeout-worker:it";
        run(List.of("podman", "build", "--runtime", "/usr/sbin/runc", "--build-arg", "DELAYQ_WORKER_IMAGE=" + baseImage,
                "-t", image, "-f", PROJECT.resolve("Containerfile").toString(), PROJECT.toString()), Duration.ofMinutes(5));
        String container = "order-timeout-it-" + ProcessHandle.current().pid();
        try (LocalRedisServer redis = LocalRedisServer.start();
             FakeOrderService orders = new FakeOrderService().order("8812", State.UNPAID);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("order-timeouts").shards(8).build()) {
            run(List.of("podman", "run", "-d", "--name", container, "--runtime", "/usr/sbin/runc", "--network", "host",
                    "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1000:1000",
                    "-e", "DELAYQ_REDIS_URL=" + redis.url(), "-e", "DELAYQ_QUEUE=order-timeouts", "-e", "DELAYQ_SHARDS=8",
                    "-e", "DELAYQ_HTTP_PORT=" + LocalRedisServer.freePort(), "-e", "ORDER_SERVICE_URL=" + orders.url(), image),
                    Duration.ofMinutes(1));
            try {
                client.enqueue(TaskSpec.of("8812").after(Duration.ofMillis(300)));
                await().atMost(Duration.ofSeconds(60)).until(() -> orders.state("8812") == State.CANCELLED);
                assertThat(run(List.of("podman", "logs", container), Duration.ofSeconds(30)))
                        .contains("order-timeout handler for queue order-timeouts");
            } finally {
                run(List.of("podman", "rm", "-f", container), Duration.ofMinutes(1));
            }
        } finally {
            run(List.of("podman", "rmi", "-f", image), Duration.ofMinutes(1));
        }
    }

    private static String run(List<String> cmd, Duration limit) throws IOException, InterruptedException {
        Path out = Files.createTempFile("podman", ".log");
        Process p = new ProcessBuilder(new ArrayList<>(cmd)).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not finish within " + limit);
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + text);
        }
        return text;
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
