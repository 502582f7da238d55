package io.delayq.operator.metrics;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class QueueMetricsTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final QueueMetrics metrics = new QueueMetrics(registry);

    private static QueueStats stats(long due) {
        return new QueueStats("orders", List.of(new ShardStats(0, 10_000, 3, due, 2, 1, 7_500)));
    }

    @Test
    void exportsOneSeriesPerDelayQueueAndWorkerWithTheContractNames() {
        metrics.update("shop", "orders", "orders", Map.of("orders-worker-0-3", stats(5), "orders-worker-4-7", stats(7)));

        String text = registry.scrape();

        assertThat(text).contains("delayq_queue_due_tasks{delayqueue=\"orders\",namespace=\"shop\",queue=\"orders\",worker=\"orders-worker-0-3\"} 5.0");
        assertThat(text).contains("delayq_queue_due_tasks{delayqueue=\"orders\",namespace=\"shop\",queue=\"orders\",worker=\"orders-worker-4-7\"} 7.0");
        assertThat(text).contains("delayq_queue_scheduled_tasks{", "delayq_queue_inflight_tasks{", "delayq_queue_dead_tasks{");
        assertThat(text).contains("delayq_queue_oldest_overdue_seconds{delayqueue=\"orders\",namespace=\"shop\",queue=\"orders\",worker=\"orders-worker-0-3\"} 2.5");
    }

    @Test
    void updatesValuesAndDropsWorkersThatAreGone() {
        metrics.update("shop", "orders", "orders", Map.of("orders-worker-0-3", stats(5), "orders-worker-4-7", stats(7)));
        metrics.update("shop", "orders", "orders", Map.of("orders-worker-0-7", stats(9)));

        String text = registry.scrape();

        assertThat(text).contains("worker=\"orders-worker-0-7\"} 9.0").doesNotContain("orders-worker-0-3").doesNotContain("orders-worker-4-7");
    }

    @Test
    void removingADelayQueueRemovesItsSeries() {
        metrics.update("shop", "orders", "orders", Map.of("orders-worker-0-3", stats(5)));
        metrics.update("shop", "coupons", "coupons", Map.of("coupons-worker-0-0", stats(1)));

        metrics.remove("shop", "orders");

        assertThat(registry.scrape()).doesNotContain("delayqueue=\"orders\"").contains("delayqueue=\"coupons\"");
    }
}
