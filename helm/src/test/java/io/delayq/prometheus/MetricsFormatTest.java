package io.delayq.prometheus;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The worker's /metrics, after it delivered tasks with every outcome, passes
 * `promtool check metrics` (format and Prometheus' naming conventions).
 */
class MetricsFormatTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private Promtool promtool;

    @BeforeEach
    void findPromtool() {
        promtool = new Promtool(PrometheusBinaries.requirePromtool());
    }

    @Test
    void workerMetricsPassPromtool() throws Exception {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("formats").shards(4).build()) {
            for (int i = 0; i < 20; i++) {
                client.enqueue(TaskSpec.of("ok-" + i));
            }
            client.enqueue(TaskSpec.of("dead-1"));
            client.enqueue(TaskSpec.of("retry-1"));
            // waits: the due forecast and the next due time have a series
            client.enqueue(TaskSpec.of("tomorrow").after(Duration.ofDays(1)));
            ScriptedDelivery delivery = ScriptedDelivery.acking();
            try (RunningWorker worker = RunningWorker.start(redis.url(), "formats", 4, 4, delivery)) {
                // Every outcome has happened (retry-1 runs out of its 2 attempts and dies too).
                await().atMost(Duration.ofSeconds(30)).until(() -> client.stats().dead() == 2 && client.stats().due() == 0
                        && client.stats().scheduled() == 1 && client.stats().inflight() == 0
                        && worker.scrape().contains("delayq_next_due_timestamp_seconds{"));
                String text = worker.scrape();

                assertThat(text).contains("delayq_tasks_total{", "outcome=\"acked\"", "outcome=\"dead\"", "outcome=\"retried\"",
                        "delayq_handler_duration_seconds_bucket{", "delayq_dispatch_lag_seconds_bucket{",
                        "delayq_backlog_due_tasks{", "delayq_tasks_due_within{", "delayq_next_due_timestamp_seconds{",
                        "delayq_worker_info{", "lettuce_command_completion_seconds");
                Promtool.Result r = promtool.checkMetrics(text);
                assertThat(r.ok()).as("promtool check metrics:\n%s", r.output()).isTrue();
                assertThat(r.output()).isBlank();
            }
        }
    }

    @Test
    void promtoolRejectsBadExposition() {
        // The check can fail: a counter without the _total suffix is a finding.
        Promtool.Result r = promtool.checkMetrics("""
                # HELP delayq_things Things.
                # TYPE delayq_things counter
                delayq_things 1
                """);

        assertThat(r.ok()).isFalse();
        assertThat(r.output()).contains("_total");
    }
}
