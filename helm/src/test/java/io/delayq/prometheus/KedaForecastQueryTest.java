package io.delayq.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.chart.HelmChart;
import io.delayq.chart.Yaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ScaledObject with {@code forecast} scales on the larger of the operator's due backlog and the workers' forecast:
 * rendered by real Helm, its query passes {@code promtool check rules}, and Prometheus' engine ({@code promtool test
 * rules}) evaluates it on series like the ones the chart's monitors scrape (two replicas exporting the same shards).
 */
class KedaForecastQueryTest {
    private static final Map<String, Object> VALUES = Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(
            Map.of("name", "orders", "namespace", "shop", "threshold", 500,
                    "forecast", Map.of("window", "5m", "tasksPerSecondPerReplica", 50)),
            Map.of("name", "coupons"))));
    private static final String BACKLOG = "sum(delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\"})";
    private static final String DUE_SOON = "sum(max by (shard) (delayq_tasks_due_within{namespace=\"shop\",delayqueue=\"orders\",window=\"5m\"}))";

    @TempDir
    Path scratch;

    private JsonNode trigger(String scaledObject) {
        return HelmChart.of(scratch).render(VALUES).get("ScaledObject", scaledObject).at("/spec/triggers/0");
    }

    @Test
    void theTriggerTakesTheLargerOfTheBacklogAndTheTasksDueWithinTheLeadWindow() {
        JsonNode orders = trigger("orders-delayq");

        assertThat(orders.at("/metadata/query").asText()).isEqualTo("max(label_replace(" + BACKLOG + ", \"term\", \"backlog\", \"\", \"\") or "
                + "label_replace(" + DUE_SOON + " * 500 / (50 * 300), \"term\", \"forecast\", \"\", \"\"))");
        assertThat(orders.at("/metadata/threshold").asText()).isEqualTo("500");
        // without forecast, the backlog alone, as before
        assertThat(trigger("coupons-delayq").at("/metadata/query").asText())
                .isEqualTo("sum(delayq_queue_due_tasks{namespace=\"" + HelmChart.NAMESPACE + "\",delayqueue=\"coupons\"})");
    }

    /** The query as a recording rule {@code keda:orders}, in a rule file beside the promtool tests. */
    private Path ruleFile(String query) throws IOException {
        Path file = Files.createDirectories(scratch.resolve("rules")).resolve("keda.yaml");
        Yaml.write(file, Map.of("groups", List.of(Map.of("name", "keda", "rules", List.of(Map.of("record", "keda:orders", "expr", query))))));
        return file;
    }

    @Test
    void promtoolChecksTheQueryAndPrometheusEvaluatesIt() throws IOException {
        Promtool promtool = new Promtool(PrometheusBinaries.requirePromtool());
        String query = trigger("orders-delayq").at("/metadata/query").asText();
        Path ruleFile = ruleFile(query);

        Promtool.Result check = promtool.checkRules(ruleFile);
        assertThat(check.ok()).as(check.output()).isTrue();

        // Two replicas export the same two shards: 3,000 + 1,500 due within 5m counts once, 4,500 tasks / (50/s × 300 s)
        // = 0.3 of a replica, times the threshold 500: 150 backlog-equivalents. Other windows and queues do not count.
        String worker = "delayq_tasks_due_within{namespace=\"shop\",delayqueue=\"orders\",queue=\"orders\",shard=\"%s\",window=\"%s\",pod=\"%s\"}";
        List<Map<String, String>> series = List.of(
                Map.of("series", worker.formatted("0", "5m", "orders-worker-a"), "values", "3000x10"),
                Map.of("series", worker.formatted("0", "5m", "orders-worker-b"), "values", "3000x10"),
                Map.of("series", worker.formatted("1", "5m", "orders-worker-a"), "values", "1500x10"),
                Map.of("series", worker.formatted("1", "5m", "orders-worker-b"), "values", "1500x10"),
                Map.of("series", worker.formatted("0", "1h", "orders-worker-a"), "values", "90000x10"),
                Map.of("series", "delayq_tasks_due_within{namespace=\"shop\",delayqueue=\"coupons\",queue=\"coupons\",shard=\"0\",window=\"5m\"}",
                        "values", "90000x10"),
                // the backlog: 100 due for 5 minutes, then 400 (more than the forecast's 150)
                Map.of("series", "delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\",queue=\"orders\",worker=\"orders-worker-0-1\"}",
                        "values", "100x5 400x5"));
        Path tests = ruleFile.resolveSibling("keda-test.yaml");
        Yaml.write(tests, Map.of("rule_files", List.of("keda.yaml"), "evaluation_interval", "1m", "tests", List.of(Map.of(
                "interval", "1m", "input_series", series,
                "promql_expr_test", List.of(
                        Map.of("expr", query, "eval_time", "2m", "exp_samples", List.of(Map.of("labels", "{}", "value", 150))),
                        Map.of("expr", query, "eval_time", "8m", "exp_samples", List.of(Map.of("labels", "{}", "value", 400))),
                        Map.of("expr", "keda:orders", "eval_time", "2m", "exp_samples", List.of(Map.of("labels", "keda:orders", "value", 150))))))));

        Promtool.Result evaluated = promtool.testRules(tests);
        assertThat(evaluated.ok()).as(evaluated.output()).isTrue();
        assertThat(evaluated.output()).contains("SUCCESS");
    }

    @Test
    void withoutTheWorkersSeriesTheBacklogAloneCounts() throws IOException {
        Promtool promtool = new Promtool(PrometheusBinaries.requirePromtool());
        String query = trigger("orders-delayq").at("/metadata/query").asText();
        Path tests = ruleFile(query).resolveSibling("keda-backlog-only-test.yaml");
        Yaml.write(tests, Map.of("rule_files", List.of("keda.yaml"), "tests", List.of(Map.of(
                "interval", "1m",
                "input_series", List.of(Map.of("series",
                        "delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\",queue=\"orders\",worker=\"orders-worker-0-1\"}", "values", "70x5")),
                "promql_expr_test", List.of(Map.of("expr", query, "eval_time", "2m", "exp_samples", List.of(Map.of("labels", "{}", "value", 70))))))));

        Promtool.Result evaluated = promtool.testRules(tests);
        assertThat(evaluated.ok()).as(evaluated.output()).isTrue();
    }
}
