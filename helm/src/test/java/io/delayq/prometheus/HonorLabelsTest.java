package io.delayq.prometheus;

import io.delayq.backlog.QueueStats;
import io.delayq.client.DelayQueueClient;
import io.delayq.health.ProbeServer;
import io.delayq.operator.metrics.QueueMetrics;
import io.delayq.redis.Replies;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Why the chart's operator monitors set honorLabels: the operator's series carry the DelayQueue's
 * `namespace`, and a Kubernetes scrape adds the operator's own as a target label. Without
 * honor_labels Prometheus keeps the target's and renames the series' to exported_namespace, and
 * the KEDA trigger's query finds nothing. (With it, RunningOperatorTest gets the number in Redis.)
 * The series come from the operator's own classes (QueueMetrics on its ProbeServer), fed with
 * real stats of a queue in Redis.
 */
class HonorLabelsTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String KEDA_QUERY = "sum(delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\"})";

    @TempDir
    Path dir;

    private DelayQueueClient client;
    private ProbeServer endpoint;

    @BeforeEach
    void setUp() throws Exception {
        client = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
        for (int i = 0; i < 23; i++) {
            client.enqueue(TaskSpec.of("order-" + i).at(Instant.now().minusSeconds(30)));
        }
        for (int i = 0; i < 5; i++) {
            client.enqueue(TaskSpec.of("later-" + i).after(Duration.ofHours(1)));
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Two worker Deployments of DelayQueue shop/orders, shards 0-1 and 2-3, as the operator reports them.
        Map<String, QueueStats> byWorker = new LinkedHashMap<>();
        byWorker.put("orders-worker-0-1", stats(0, 1));
        byWorker.put("orders-worker-2-3", stats(2, 3));
        new QueueMetrics(registry).update("shop", "orders", "orders", byWorker);
        endpoint = new ProbeServer(0, "test-http", registry::scrape, () -> true, () -> true);
    }

    @AfterEach
    void tearDown() {
        if (endpoint != null) {
            endpoint.close();
        }
        if (client != null) {
            client.close();
        }
    }

    @Test
    void withoutHonorLabelsTheKedaQueryFindsNothing() {
        Path binary = PrometheusBinaries.requirePrometheus();
        PrometheusServer.ScrapeJob plain = new PrometheusServer.ScrapeJob("operator", List.of("127.0.0.1:" + endpoint.port()),
                Map.of("namespace", "delayq-system"), false);
        try (PrometheusServer prometheus = PrometheusServer.start(binary, dir.resolve("prometheus"), List.of(plain), null)) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> Double.valueOf(23).equals(prometheus.queryValue("sum(delayq_queue_due_tasks{exported_namespace=\"shop\"})")));
            assertThat(prometheus.queryValue("sum(delayq_queue_due_tasks{namespace=\"delayq-system\"})")).isEqualTo(23.0);
            assertThat(prometheus.queryValue(KEDA_QUERY)).isNull();
        }
    }

    private QueueStats stats(int from, int to) {
        return Replies.await(new io.delayq.backlog.StatsReader(client.protocol().scope()).stats(IntStream.rangeClosed(from, to)), Duration.ofSeconds(5));
    }
}
