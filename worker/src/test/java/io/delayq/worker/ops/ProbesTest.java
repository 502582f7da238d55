package io.delayq.worker.ops;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /healthz} and {@code /readyz} over real HTTP: ready while Redis answers, 503 while it does
 * not (the Redis process is frozen with SIGSTOP), ready again after it resumes; live throughout.
 */
class ProbesTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "probed";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);
    private boolean paused;

    @AfterEach
    void close() {
        if (paused) {
            redis.server().resume();
        }
        workers.close();
    }

    private int get(Worker w, String path) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + w.httpPort() + path)).timeout(Duration.ofSeconds(3)).build();
        return http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void readinessFollowsRedisWhileLivenessStays() throws Exception {
        Set<String> handled = ConcurrentHashMap.newKeySet();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> handled.add(task.id()));
        assertThat(get(w, "/healthz")).isEqualTo(200);
        assertThat(get(w, "/readyz")).isEqualTo(200);
        assertThat(get(w, "/nothing-here")).isEqualTo(404);

        redis.server().pause();
        paused = true;
        // the worker's Redis commands time out after 5 s: allow for that and a refresh
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> get(w, "/readyz") == 503);
        assertThat(get(w, "/healthz")).as("Redis being away is not a reason to restart the worker").isEqualTo(200);

        redis.server().resume();
        paused = false;
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> get(w, "/readyz") == 200);
        assertThat(get(w, "/healthz")).isEqualTo(200);

        // and it works again, not only answers
        queue.client().enqueue(TaskSpec.of("after-resume"));
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.contains("after-resume"));
    }
}
