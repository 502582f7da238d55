package io.delayq.chart;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad values stop `helm install` with an error that names the field and the rule. */
class ValuesValidationTest {
    @TempDir
    Path scratch;

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(Map.of("replicaCount", 3, "leaderElection", Map.of("enabled", false)),
                        List.of("replicaCount", "leaderElection.enabled")),
                Arguments.of(Map.of("watchNamespaces", List.of("Shop_1")),
                        List.of("watchNamespaces", "Does not match pattern")),
                Arguments.of(Map.of("watchNamespace", List.of("shop")),
                        List.of("watchNamespace", "Additional property")),
                Arguments.of(Map.of("metrics", Map.of("port", 70000)),
                        List.of("metrics.port", "Must be less than or equal to 65535")),
                Arguments.of(Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(Map.of("namespace", "shop")))),
                        List.of("keda.scaledObjects.0", "name is required")),
                Arguments.of(Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(
                                Map.of("name", "orders", "minReplicaCount", 5, "maxReplicaCount", 2)))),
                        List.of("keda.scaledObjects[0] (orders)", "maxReplicaCount must be at least minReplicaCount")),
                Arguments.of(Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(
                                Map.of("name", "orders", "forecast", Map.of("window", "10m", "tasksPerSecondPerReplica", 50))))),
                        List.of("keda.scaledObjects.0.forecast.window", "1m", "1h")),
                Arguments.of(Map.of("keda", Map.of("enabled", true, "scaledObjects", List.of(
                                Map.of("name", "orders", "forecast", Map.of("window", "5m"))))),
                        List.of("keda.scaledObjects.0.forecast", "tasksPerSecondPerReplica is required")),
                Arguments.of(Map.of("prometheusRule", Map.of("enabled", true, "disabledAlerts", List.of("DelayqTypo"))),
                        List.of("prometheusRule.disabledAlerts", "DelayqTypo", "DelayqDueBacklogHigh")),
                Arguments.of(Map.of("prometheusRule", Map.of("enabled", true, "overrides", Map.of("Nope", Map.of("for", "5m")))),
                        List.of("prometheusRule.overrides", "Nope")),
                Arguments.of(Map.of("extraEnv", List.of(Map.of("name", "DELAYQ_METRICS_PORT", "value", "1"))),
                        List.of("extraEnv.0.name")),
                Arguments.of(Map.of("serviceMonitor", Map.of("enabled", true), "metrics", Map.of("service", Map.of("enabled", false))),
                        List.of("serviceMonitor.operator", "metrics.service.enabled")),
                Arguments.of(Map.of("image", Map.of("repository", "x", "pullPolicy", "Sometimes")),
                        List.of("image.pullPolicy")),
                Arguments.of(Map.of("leaderElection", Map.of("enabled", true, "leaseDuration", "soon")),
                        List.of("leaderElection.leaseDuration", "Does not match pattern")));
    }

    @ParameterizedTest
    @MethodSource("badValues")
    void rejectedWithAMessageNamingTheField(Map<String, Object> values, List<String> mentions) {
        assertThatThrownBy(() -> HelmChart.of(scratch).render(values))
                .satisfies(e -> mentions.forEach(s -> org.assertj.core.api.Assertions.assertThat(e.getMessage()).contains(s)));
    }
}
