package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The Prometheus, Grafana and KEDA objects: absent by default, present (and right) only when enabled. */
class OptInObjectsTest {
    private static final List<String> OPT_IN_KINDS = List.of("ServiceMonitor", "PodMonitor", "PrometheusRule", "ScaledObject", "ConfigMap");
    private static final String ALERTS = "files/alerts.yaml";

    @TempDir
    Path scratch;

    @Test
    void defaultsRenderOnlyTheOperator() {
        Manifests m = HelmChart.of(scratch).render();

        assertThat(m.kinds()).containsExactlyInAnyOrder("ClusterRole", "ClusterRoleBinding", "Deployment", "Role",
                "RoleBinding", "Service", "ServiceAccount");
        assertThat(m.kinds()).doesNotContainAnyElementsOf(OPT_IN_KINDS);
    }

    static Stream<Arguments> eachOptIn() {
        return Stream.of(
                Arguments.of(Map.of("serviceMonitor", Map.of("enabled", true)), "ServiceMonitor", 2),
                Arguments.of(Map.of("podMonitor", Map.of("enabled", true)), "PodMonitor", 3),
                Arguments.of(Map.of("prometheusRule", Map.of("enabled", true)), "PrometheusRule", 1),
                Arguments.of(Map.of("grafanaDashboard", Map.of("enabled", true)), "ConfigMap", 1),
                Arguments.of(Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(Map.of("name", "orders")))), "ScaledObject", 1));
    }

    @ParameterizedTest
    @MethodSource("eachOptIn")
    void eachOptInAddsOnlyItsOwnObjects(Map<String, Object> values, String kind, int count) {
        Manifests m = HelmChart.of(scratch).render(values);

        assertThat(m.ofKind(kind)).hasSize(count);
        assertThat(m.kinds()).doesNotContainAnyElementsOf(OPT_IN_KINDS.stream().filter(k -> !k.equals(kind)).toList());
    }

    @Test
    void prometheusRuleShipsTheAlertFileUnchanged() {
        JsonNode rule = HelmChart.of(scratch).render(Map.of("prometheusRule", Map.of("enabled", true))).one("PrometheusRule");
        JsonNode file = Yaml.read(RepoPaths.chart().resolve(ALERTS));

        assertThat(rule.at("/spec/groups")).isEqualTo(file.path("groups"));
        assertThat(alertNames(rule)).containsExactlyInAnyOrder("DelayqDueBacklogHigh", "DelayqOldestOverdueTaskTooOld",
                "DelayqHandlerSlow", "DelayqConsecutiveFailures", "DelayqFailureRatioHigh", "DelayqDeadLettersGrowing", "DelayqNoWorkerUp",
                "DelayqScheduleStoppedFiring", "DelayqOutboxRowsWaiting", "DelayqOutboxRowsQuarantined", "DelayqBackstopRepairedTasks");
    }

    @Test
    void alertsCanBeDroppedOverriddenAndLabelled() {
        JsonNode rule = HelmChart.of(scratch).render(Map.of("prometheusRule", Map.of("enabled", true,
                "labels", Map.of("release", "kube-prometheus-stack"),
                "disabledAlerts", List.of("DelayqDeadLettersGrowing"),
                "additionalLabels", Map.of("team", "payments"),
                "overrides", Map.of("DelayqDueBacklogHigh", Map.of(
                        "expr", "sum by (namespace, delayqueue) (delayq_queue_due_tasks) > 500",
                        "for", "30m", "labels", Map.of("severity", "critical")))))).one("PrometheusRule");

        assertThat(rule.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
        assertThat(alertNames(rule)).hasSize(10).doesNotContain("DelayqDeadLettersGrowing");
        JsonNode backlog = alert(rule, "DelayqDueBacklogHigh");
        assertThat(backlog.path("expr").asText()).isEqualTo("sum by (namespace, delayqueue) (delayq_queue_due_tasks) > 500");
        assertThat(backlog.path("for").asText()).isEqualTo("30m");
        assertThat(backlog.at("/labels/severity").asText()).isEqualTo("critical");
        assertThat(backlog.at("/labels/team").asText()).isEqualTo("payments");
        JsonNode slow = alert(rule, "DelayqHandlerSlow");
        assertThat(slow.at("/labels/severity").asText()).isEqualTo("warning");
        assertThat(slow.at("/labels/team").asText()).isEqualTo("payments");
        assertThat(slow.path("expr").asText()).contains("delayq_handler_duration_seconds_bucket").contains("> 5");
    }

    @Test
    void dashboardConfigMapCarriesTheDashboardFile() throws IOException {
        JsonNode cm = HelmChart.of(scratch).render(Map.of("grafanaDashboard", Map.of("enabled", true,
                "namespace", "monitoring", "annotations", Map.of("grafana_folder", "delayq")))).one("ConfigMap");
        ObjectMapper json = new ObjectMapper();
        JsonNode shipped = json.readTree(cm.at("/data/delayq.json").asText());
        JsonNode file = json.readTree(RepoPaths.chart().resolve("files/dashboard.json").toFile());

        assertThat(cm.at("/metadata/namespace").asText()).isEqualTo("monitoring");
        assertThat(cm.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
        assertThat(cm.at("/metadata/annotations/grafana_folder").asText()).isEqualTo("delayq");
        assertThat(shipped).isEqualTo(file);
        List<String> titles = new ArrayList<>();
        shipped.path("panels").forEach(p -> titles.add(p.path("title").asText()));
        assertThat(titles).contains("Backlog", "Dispatch lag (fired − due)", "Throughput (acked per second)",
                "Outcomes per second", "Per shard range", "Due backlog per worker Deployment (shard range)");
        assertThat(Dashboard.expressions(shipped)).isNotEmpty().allSatisfy(e -> assertThat(e).contains("delayq_"));
    }

    @Test
    void kedaScalesTheDelayQueueThroughItsScaleSubresourceOnTheOperatorsBacklog() {
        Manifests m = HelmChart.of(scratch).render(ValueSets.EVERYTHING);

        JsonNode orders = m.get("ScaledObject", "orders-delayq");
        assertThat(orders.at("/metadata/namespace").asText()).isEqualTo("shop");
        assertThat(orders.at("/spec/scaleTargetRef/apiVersion").asText()).isEqualTo("delayq.io/v1alpha1");
        assertThat(orders.at("/spec/scaleTargetRef/kind").asText()).isEqualTo("DelayQueue");
        assertThat(orders.at("/spec/scaleTargetRef/name").asText()).isEqualTo("orders");
        assertThat(orders.at("/spec/minReplicaCount").asInt()).isEqualTo(1);
        assertThat(orders.at("/spec/maxReplicaCount").asInt()).isEqualTo(20);
        JsonNode trigger = orders.at("/spec/triggers/0");
        assertThat(orders.at("/spec/triggers")).hasSize(1);
        assertThat(trigger.path("type").asText()).isEqualTo("prometheus");
        assertThat(trigger.at("/metadata/query").asText()).isEqualTo("sum(delayq_queue_due_tasks{namespace=\"shop\",delayqueue=\"orders\"})");
        assertThat(trigger.at("/metadata/threshold").isTextual()).as("KEDA wants the threshold as a string").isTrue();
        assertThat(trigger.at("/metadata/threshold").asText()).isEqualTo("500");
        assertThat(trigger.at("/metadata/serverAddress").asText()).isEqualTo("http://prometheus-operated.monitoring.svc:9090");

        // Namespace defaults to the release's; threshold to 1000.
        JsonNode coupons = m.get("ScaledObject", "coupons-delayq");
        assertThat(coupons.at("/metadata/namespace").asText()).isEqualTo(HelmChart.NAMESPACE);
        assertThat(coupons.at("/spec/triggers/0/metadata/query").asText())
                .isEqualTo("sum(delayq_queue_due_tasks{namespace=\"" + HelmChart.NAMESPACE + "\",delayqueue=\"coupons\"})");
        assertThat(coupons.at("/spec/triggers/0/metadata/threshold").asText()).isEqualTo("1000");
    }

    @Test
    void operatorMonitorsKeepTheDelayQueueNamespaceLabel() {
        Manifests m = HelmChart.of(scratch).render(ValueSets.EVERYTHING);

        JsonNode sm = m.get("ServiceMonitor", "delayq-delayq-operator");
        assertThat(sm.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
        assertThat(sm.at("/spec/endpoints/0/honorLabels").asBoolean()).isTrue();
        assertThat(sm.at("/spec/endpoints/0/port").asText()).isEqualTo(m.one("Service").at("/spec/ports/0/name").asText());
        assertThat(sm.at("/spec/selector/matchLabels")).isEqualTo(m.one("Service").at("/spec/selector"));
        assertThat(m.get("PodMonitor", "delayq-delayq-operator").at("/spec/podMetricsEndpoints/0/honorLabels").asBoolean()).isTrue();
    }

    @Test
    void workerMonitorsSelectTheOperatorsWorkerLabelsInTheWatchedNamespaces() {
        Manifests all = HelmChart.of(scratch).render(ValueSets.EVERYTHING);
        Manifests limited = HelmChart.of(scratch).render(Map.of("watchNamespaces", List.of("shop", "bank"),
                "podMonitor", Map.of("enabled", true), "serviceMonitor", Map.of("enabled", true)));

        for (Manifests m : List.of(all, limited)) {
            JsonNode pm = m.get("PodMonitor", "delayq-delayq-operator-workers");
            JsonNode sm = m.get("ServiceMonitor", "delayq-delayq-operator-workers");
            // The labels operator/.../WorkerLabels puts on worker pods and their metrics Service.
            for (JsonNode monitor : List.of(pm, sm)) {
                assertThat(monitor.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText()).isEqualTo("delayq-worker");
                assertThat(monitor.at("/spec/selector/matchLabels/app.kubernetes.io~1managed-by").asText()).isEqualTo("delayq-operator");
            }
            assertThat(pm.at("/spec/podMetricsEndpoints/0/port").asText()).isEqualTo("http");
            assertThat(sm.at("/spec/endpoints/0/port").asText()).isEqualTo("http-metrics");
            assertThat(pm.at("/spec/podMetricsEndpoints/0/relabelings").toString())
                    .contains("delayqueue").contains("shard_range");
        }
        for (Manifests m : List.of(all, limited)) {
            // the labels of an outbox relay's own Deployment (WorkerLabels.forOutboxRelay)
            JsonNode relays = m.get("PodMonitor", "delayq-delayq-operator-outbox-relays");
            assertThat(relays.at("/spec/selector/matchLabels/app.kubernetes.io~1name").asText()).isEqualTo("delayq-outbox-relay");
            assertThat(relays.at("/spec/selector/matchLabels/app.kubernetes.io~1managed-by").asText()).isEqualTo("delayq-operator");
            assertThat(relays.at("/spec/podMetricsEndpoints/0/port").asText()).isEqualTo("http");
            assertThat(relays.at("/spec/namespaceSelector")).isEqualTo(m.get("PodMonitor", "delayq-delayq-operator-workers").at("/spec/namespaceSelector"));
        }
        assertThat(all.get("PodMonitor", "delayq-delayq-operator-workers").at("/spec/namespaceSelector/any").asBoolean()).isTrue();
        assertThat(limited.get("PodMonitor", "delayq-delayq-operator-workers").at("/spec/namespaceSelector/matchNames").toString())
                .isEqualTo("[\"shop\",\"bank\"]");
    }

    private static List<String> alertNames(JsonNode rule) {
        List<String> names = new ArrayList<>();
        rule.at("/spec/groups").forEach(g -> g.path("rules").forEach(r -> names.add(r.path("alert").asText())));
        return names;
    }

    private static JsonNode alert(JsonNode rule, String name) {
        for (JsonNode g : rule.at("/spec/groups")) {
            for (JsonNode r : g.path("rules")) {
                if (r.path("alert").asText().equals(name)) {
                    return r;
                }
            }
        }
        throw new AssertionError("no alert " + name);
    }
}
