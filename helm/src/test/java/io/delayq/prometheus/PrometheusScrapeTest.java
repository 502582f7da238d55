package io.delayq.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.chart.Dashboard;
import io.delayq.chart.RepoPaths;
import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus scrapes a running worker whose queue has tasks in a real Redis: the due
 * backlog Prometheus answers is the number in Redis, and the chart's alert rules and dashboard
 * queries run against the scraped data.
 */
class PrometheusScrapeTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String QUEUE = "orders";
    private static final int SHARDS = 4;
    private static final int TASKS = 37;
    /** The worker-side equivalent of the KEDA trigger's query (the operator's series carry {namespace, delayqueue}). */
    private static final String DUE_QUERY = "sum(delayq_backlog_due_tasks{queue=\"" + QUEUE + "\"})";

    @TempDir
    Path dir;

    private Path prometheusBinary;
    private DelayQueueClient client;
    private RunningWorker worker;
    private ScriptedDelivery delivery;
    private PrometheusServer prometheus;

    @BeforeEach
    void setUp() {
        prometheusBinary = PrometheusBinaries.requirePrometheus();
        client = DelayQueueClient.builder().redis(redis.url()).queue(QUEUE).shards(SHARDS).build();
    }

    @AfterEach
    void tearDown() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (delivery != null) {
            delivery.release();
        }
        if (worker != null) {
            worker.close();
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void prometheusReportsTheDueBacklogThatIsInRedis() {
        for (int i = 0; i < TASKS; i++) {
            client.enqueue(TaskSpec.of("order-" + i));
        }
        // One handler slot, and the handler holds its task: one task in flight, the rest stays due.
        delivery = ScriptedDelivery.holding();
        worker = RunningWorker.start(redis.url(), QUEUE, SHARDS, 1, delivery);
        await().atMost(Duration.ofSeconds(10)).until(delivery::holdsATask);
        long dueInRedis = client.stats().due();
        assertThat(dueInRedis).isEqualTo(TASKS - 1);
        assertThat(client.stats().inflight()).isEqualTo(1);

        prometheus = PrometheusServer.start(prometheusBinary, dir.resolve("prometheus"), List.of(PrometheusServer.ScrapeJob.of("delayq", worker.target())), null);

        await("Prometheus answers " + DUE_QUERY + " = " + dueInRedis).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Double.valueOf(dueInRedis).equals(prometheus.queryValue(DUE_QUERY)));
        assertThat(prometheus.queryValue("sum(delayq_backlog_inflight_tasks{queue=\"" + QUEUE + "\"})")).isEqualTo(1.0);
        assertThat(prometheus.queryValue("count(delayq_backlog_due_tasks{queue=\"" + QUEUE + "\"})")).isEqualTo(SHARDS);
        assertThat(prometheus.queryValue("up{job=\"delayq\"}")).isEqualTo(1.0);
        // The numbers are Redis' own, not the worker's guess: Redis still holds the same.
        assertThat(client.stats().due()).isEqualTo(dueInRedis);
    }

    @Test
    void theShippedAlertRulesAndDashboardQueriesRunOnTheScrapedData() {
        for (int i = 0; i < 10; i++) {
            client.enqueue(TaskSpec.of("order-" + i));
        }
        client.enqueue(TaskSpec.of("dead-1"));
        delivery = ScriptedDelivery.acking();
        worker = RunningWorker.start(redis.url(), QUEUE, SHARDS, 2, delivery);
        Path alerts = RepoPaths.chart().resolve("files/alerts.yaml");
        prometheus = PrometheusServer.start(prometheusBinary, dir.resolve("prometheus"), List.of(PrometheusServer.ScrapeJob.of("delayq", worker.target())), alerts);

        // Prometheus loaded the very rule file the chart ships, and evaluates every rule without error.
        int shipped = 0;
        for (JsonNode group : io.delayq.chart.Yaml.read(alerts).path("groups")) {
            shipped += group.path("rules").size();
        }
        int expected = shipped;
        assertThat(expected).as("rules in files/alerts.yaml").isGreaterThan(0);
        await(expected + " healthy alert rules").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            List<JsonNode> rules = new ArrayList<>();
            prometheus.getJson("/api/v1/rules").at("/data/groups").forEach(g -> g.path("rules").forEach(rules::add));
            return rules.size() == expected && rules.stream().allMatch(r -> "ok".equals(r.path("health").asText())
                    && !r.path("lastEvaluation").asText().startsWith("0001"));
        });
        await("acked tasks scraped").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> Double.valueOf(10).equals(prometheus.queryValue("sum(delayq_tasks_total{outcome=\"acked\"})")));

        // Every dashboard query is valid PromQL; the worker-side ones return data.
        List<String> failed = new ArrayList<>();
        List<String> empty = new ArrayList<>();
        for (String expr : Dashboard.expressions(Dashboard.read())) {
            JsonNode answer = prometheus.query(Dashboard.runnable(expr));
            if (!"success".equals(answer.path("status").asText())) {
                failed.add(expr + " -> " + answer.path("error").asText());
            } else if (answer.at("/data/result").isEmpty() && !expr.contains("delayq_queue_")) {
                empty.add(expr);
            }
        }
        assertThat(failed).as("dashboard queries Prometheus refused").isEmpty();
        // Quantiles of histograms need two scrapes with a change; the rest must show the worker's series.
        assertThat(empty).as("worker dashboard queries without data")
                .allMatch(e -> e.contains("histogram_quantile") || e.contains("rate(") || e.contains("shard_range"));
        assertThat(prometheus.queryValue("count(delayq_worker_info{queue=\"" + QUEUE + "\"})")).isEqualTo(1.0);
    }
}
