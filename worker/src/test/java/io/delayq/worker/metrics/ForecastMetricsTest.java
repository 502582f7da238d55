package io.delayq.worker.metrics;

import io.delayq.task.CancelResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The due forecast on {@code /metrics} over real HTTP, read from a real Redis: tasks enqueued at known future times
 * show up in every window that reaches them, per shard, and the next due time is the earliest of them.
 */
class ForecastMetricsTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "forecast";
    private static final String DUE_WITHIN = "delayq_tasks_due_within";
    private static final String NEXT_DUE = "delayq_next_due_timestamp_seconds";
    private final HttpClient http = HttpClient.newHttpClient();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private PrometheusText scrape(Worker w) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + w.httpPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return new PrometheusText(r.body());
    }

    /** An id of the given shard (ids route by CRC-32, so the test finds one rather than guessing). */
    private String idOnShard(String prefix, int shard) {
        for (int i = 0; ; i++) {
            if (queue.shardOf(prefix + "-" + i) == shard) {
                return prefix + "-" + i;
            }
        }
    }

    private static Map<String, String> window(int shard, String window) {
        return Map.of("queue", Q, "shard", String.valueOf(shard), "window", window);
    }

    @Test
    void tasksAtKnownFutureTimesCountInTheWindowsThatReachThem() throws Exception {
        long now = queue.serverNow();
        Instant first = Instant.ofEpochMilli(now + 30_000);
        // shard 0: one task in each band (under 1 min, 1-5, 5-15, 15-60 min) and one beyond the hour
        queue.client().enqueue(TaskSpec.of(idOnShard("in-30s", 0)).at(first));
        queue.client().enqueue(TaskSpec.of(idOnShard("in-3m", 0)).at(Instant.ofEpochMilli(now + 180_000)));
        queue.client().enqueue(TaskSpec.of(idOnShard("in-10m", 0)).at(Instant.ofEpochMilli(now + 600_000)));
        queue.client().enqueue(TaskSpec.of(idOnShard("in-40m", 0)).at(Instant.ofEpochMilli(now + 2_400_000)));
        queue.client().enqueue(TaskSpec.of(idOnShard("in-2h", 0)).at(Instant.ofEpochMilli(now + 7_200_000)));
        // shard 1: two tasks 10 minutes ahead, nothing sooner
        queue.client().enqueue(TaskSpec.of(idOnShard("a-in-10m", 1)).after(Duration.ofMinutes(10)));
        queue.client().enqueue(TaskSpec.of(idOnShard("b-in-10m", 1)).after(Duration.ofMinutes(10)));
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> { });

        // the gauges refresh on their own schedule: wait for the first reading after the enqueues
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            PrometheusText m = scrape(w);
            assertThat(m.value(DUE_WITHIN, window(0, "1h"))).isEqualTo(4.0);
            assertThat(m.value(DUE_WITHIN, window(1, "15m"))).isEqualTo(2.0);
        });
        PrometheusText m = scrape(w);

        assertThat(m.value(DUE_WITHIN, window(0, "1m"))).isEqualTo(1.0);
        assertThat(m.value(DUE_WITHIN, window(0, "5m"))).isEqualTo(2.0);
        assertThat(m.value(DUE_WITHIN, window(0, "15m"))).isEqualTo(3.0);
        assertThat(m.value(DUE_WITHIN, window(1, "1m"))).isEqualTo(0.0);
        assertThat(m.value(DUE_WITHIN, window(1, "5m"))).isEqualTo(0.0);
        assertThat(m.value(DUE_WITHIN, window(1, "1h"))).isEqualTo(2.0);
        assertThat(m.type(DUE_WITHIN)).isEqualTo("gauge");
        assertThat(m.labelNames(DUE_WITHIN)).isEqualTo(Set.of("queue", "shard", "window"));
        assertThat(m.find(DUE_WITHIN, Map.of("queue", Q))).extracting(s -> s.labels().get("window")).containsOnly("1m", "5m", "15m", "1h")
                .hasSize(8);

        assertThat(m.value(NEXT_DUE, Map.of("queue", Q, "shard", "0"))).isEqualTo(first.toEpochMilli() / 1000.0);
        assertThat(m.value(NEXT_DUE, Map.of("queue", Q, "shard", "1"))).isBetween((now + 600_000) / 1000.0, (now + 660_000) / 1000.0);
        assertThat(m.type(NEXT_DUE)).isEqualTo("gauge");
        assertThat(m.labelNames(NEXT_DUE)).isEqualTo(Set.of("queue", "shard"));
        // beside the backlog, which counts the same tasks as scheduled
        assertThat(m.value("delayq_backlog_scheduled_tasks", Map.of("queue", Q, "shard", "0"))).isEqualTo(5.0);
    }

    @Test
    void aShardWithNothingWaitingHasNoNextDueSeriesAndZeroInEveryWindow() throws Exception {
        queue.client().enqueue(TaskSpec.of(idOnShard("later", 0)).after(Duration.ofMinutes(3)));
        // due already: the backlog, not the forecast
        queue.client().enqueue(TaskSpec.of(idOnShard("overdue", 1)).at(Instant.ofEpochMilli(queue.serverNow() - 60_000)));
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> { });

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            PrometheusText m = scrape(w);
            assertThat(m.value(DUE_WITHIN, window(0, "5m"))).isEqualTo(1.0);
            assertThat(m.find(NEXT_DUE, Map.of("queue", Q, "shard", "0"))).hasSize(1);
            assertThat(m.value("delayq_tasks_total", Map.of("queue", Q, "outcome", "acked"))).as("the overdue task ran").isEqualTo(1.0);
        });
        PrometheusText m = scrape(w);

        assertThat(m.find(NEXT_DUE, Map.of("queue", Q, "shard", "1"))).as("nothing waits on shard 1").isEmpty();
        for (String window : List.of("1m", "5m", "15m", "1h")) {
            assertThat(m.value(DUE_WITHIN, window(1, window))).as(window).isEqualTo(0.0);
        }

        // once shard 0's task is gone too, its series goes away as well
        assertThat(queue.client().cancel(idOnShard("later", 0))).isEqualTo(CancelResult.CANCELLED);
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(scrape(w).find(NEXT_DUE, Map.of("queue", Q))).isEmpty());
        assertThat(scrape(w).value(DUE_WITHIN, window(0, "1h"))).isEqualTo(0.0);
    }
}
