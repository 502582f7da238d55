package io.delayq.worker.metrics;

import io.delayq.handler.PermanentFailure;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /metrics} over real HTTP after a worker ran tasks with every outcome: every metric of the
 * worker contract is there with its labels, and the counts match what happened.
 */
class MetricsEndpointTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "metered";
    private static final List<String> SHARDS = List.of("0", "1");
    private final HttpClient http = HttpClient.newHttpClient();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 2);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    private PrometheusText scrape(Worker w) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + w.httpPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        return new PrometheusText(r.body());
    }

    @Test
    void everyContractMetricIsExposedWithItsLabelsAndTheCountsMatch() throws Exception {
        Set<String> retriedOnce = ConcurrentHashMap.newKeySet();
        AtomicInteger handled = new AtomicInteger();
        Worker w = workers.startHandler(RunningWorkers.env(redis.url(), Q, 2), task -> {
            if (task.id().equals("unknown-order")) {
                throw new PermanentFailure("order does not exist");
            }
            if (task.id().equals("flaky") && retriedOnce.add(task.id())) {
                throw new IllegalStateException("gateway timed out");
            }
            handled.incrementAndGet();
        });
        for (int i = 0; i < 7; i++) {
            queue.client().enqueue(TaskSpec.of("order-" + i));
        }
        queue.client().enqueue(TaskSpec.of("flaky"));
        queue.client().enqueue(TaskSpec.of("unknown-order"));
        queue.client().enqueue(TaskSpec.of("tomorrow").after(Duration.ofDays(1)));
        int deadShard = queue.shardOf("unknown-order");
        int scheduledShard = queue.shardOf("tomorrow");

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            PrometheusText m = scrape(w);
            assertThat(handled.get()).isEqualTo(8);
            assertThat(m.value("delayq_tasks_total", Map.of("queue", Q, "outcome", "acked"))).isEqualTo(handled.get());
            assertThat(m.value("delayq_tasks_total", Map.of("queue", Q, "outcome", "dead"))).isEqualTo(1.0);
            // backlog gauges refresh on their own schedule: wait for the one after the work
            assertThat(m.value("delayq_backlog_dead_tasks", Map.of("queue", Q, "shard", String.valueOf(deadShard)))).isEqualTo(1.0);
            assertThat(m.value("delayq_backlog_scheduled_tasks", Map.of("queue", Q, "shard", String.valueOf(scheduledShard)))).isEqualTo(1.0);
        });
        PrometheusText m = scrape(w);

        assertThat(m.value("delayq_tasks_total", Map.of("queue", Q, "outcome", "retried"))).isEqualTo(1.0);
        assertThat(m.value("delayq_tasks_total", Map.of("queue", Q, "outcome", "lease_lost"))).isEqualTo(0.0);
        assertThat(m.type("delayq_tasks_total")).isEqualTo("counter");

        for (String shard : SHARDS) {
            Map<String, String> labels = Map.of("queue", Q, "shard", shard);
            for (String gauge : List.of("delayq_backlog_scheduled_tasks", "delayq_backlog_due_tasks", "delayq_backlog_inflight_tasks",
                    "delayq_backlog_dead_tasks", "delayq_backlog_oldest_overdue_seconds")) {
                assertThat(m.find(gauge, labels)).as(gauge + labels).hasSize(1);
                assertThat(m.type(gauge)).as(gauge).isEqualTo("gauge");
            }
            assertThat(m.value("delayq_backlog_due_tasks", labels)).isEqualTo(0.0);
            assertThat(m.value("delayq_backlog_inflight_tasks", labels)).isEqualTo(0.0);
            assertThat(m.value("delayq_backlog_oldest_overdue_seconds", labels)).isEqualTo(0.0);
        }
        assertThat(m.value("delayq_backlog_dead_tasks", Map.of("queue", Q, "shard", String.valueOf(1 - deadShard)))).isEqualTo(0.0);

        // ten deliveries: seven orders, the flaky one twice, the unknown order once
        Map<String, String> queueLabel = Map.of("queue", Q);
        assertThat(m.type("delayq_dispatch_lag_seconds")).isEqualTo("histogram");
        assertThat(m.value("delayq_dispatch_lag_seconds_count", queueLabel)).isEqualTo(10.0);
        assertThat(m.find("delayq_dispatch_lag_seconds_bucket", queueLabel)).isNotEmpty()
                .allSatisfy(s -> assertThat(s.labels()).containsKey("le"));
        assertThat(m.type("delayq_handler_duration_seconds")).isEqualTo("histogram");
        assertThat(m.value("delayq_handler_duration_seconds_count", queueLabel)).isEqualTo(10.0);
        assertThat(m.find("delayq_handler_duration_seconds_bucket", queueLabel)).isNotEmpty();

        // claims: as many claimed in total as delivered
        assertThat(m.value("delayq_claim_batch_size_sum", queueLabel)).isEqualTo(10.0);
        assertThat(m.value("delayq_claim_batch_size_count", queueLabel)).isGreaterThanOrEqualTo(1.0);
        assertThat(m.find("delayq_consecutive_failures", queueLabel)).hasSize(1);
        assertThat(m.value("delayq_redis_failures_total", queueLabel)).as("Redis answered every call").isZero();
        assertThat(m.value("delayq_worker_info", Map.of("queue", Q, "shard_from", "0", "shard_to", "1"))).isEqualTo(1.0);

        assertThat(m.find("lettuce_command_completion_seconds_count", Map.of("command", "EVALSHA")))
                .isNotEmpty().allSatisfy(s -> assertThat(s.value()).isPositive());

        // exactly the contract's labels, no more (a stray label would split the series the alerts sum)
        Set<String> queueShard = Set.of("queue", "shard");
        for (String gauge : List.of("delayq_backlog_scheduled_tasks", "delayq_backlog_due_tasks", "delayq_backlog_inflight_tasks",
                "delayq_backlog_dead_tasks", "delayq_backlog_oldest_overdue_seconds")) {
            assertThat(m.labelNames(gauge)).as(gauge).isEqualTo(queueShard);
        }
        for (String family : List.of("delayq_dispatch_lag_seconds_count", "delayq_handler_duration_seconds_count",
                "delayq_claim_batch_size_count", "delayq_consecutive_failures")) {
            assertThat(m.labelNames(family)).as(family).isEqualTo(Set.of("queue"));
        }
        assertThat(m.labelNames("delayq_dispatch_lag_seconds_bucket")).isEqualTo(Set.of("queue", "le"));
        assertThat(m.labelNames("delayq_tasks_total")).isEqualTo(Set.of("queue", "outcome"));
        assertThat(m.find("delayq_tasks_total", queueLabel)).extracting(s -> s.labels().get("outcome"))
                .containsExactlyInAnyOrder("acked", "retried", "dead", "lease_lost");
        assertThat(m.labelNames("delayq_worker_info")).isEqualTo(Set.of("queue", "shard_from", "shard_to"));
    }

    @Test
    void consecutiveFailuresCountsFailuresInARowAndASuccessResetsIt() throws Exception {
        Set<String> fail = ConcurrentHashMap.newKeySet();
        fail.add("a");
        fail.add("b");
        fail.add("c");
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 2);
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "1");
        env.put("DELAYQ_CONCURRENCY", "1");
        Worker w = workers.startHandler(env, task -> {
            if (fail.contains(task.id())) {
                throw new IllegalStateException("down");
            }
        });
        for (String id : List.of("a", "b", "c")) {
            queue.client().enqueue(TaskSpec.of(id));
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(scrape(w).value("delayq_consecutive_failures", Map.of("queue", Q))).isEqualTo(3.0));
        queue.client().enqueue(TaskSpec.of("d"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(scrape(w).value("delayq_consecutive_failures", Map.of("queue", Q))).isEqualTo(0.0));
    }
}
