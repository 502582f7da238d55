package io.delayq.chart;

import java.util.List;
import java.util.Map;

/** The values sets the tests render and lint the chart with. */
public final class ValueSets {
    private ValueSets() {
    }

    public static final Map<String, Object> DEFAULTS = Map.of();

    public static final Map<String, Object> NAMESPACED = Map.of(
            "watchNamespaces", List.of("shop", "bank"));

    public static final Map<String, Object> NO_LEADER_ELECTION = Map.of(
            "leaderElection", Map.of("enabled", false));

    public static final Map<String, Object> HA = Map.of(
            "replicaCount", 2,
            "affinity", Map.of("podAntiAffinity", Map.of("preferredDuringSchedulingIgnoredDuringExecution", List.of(
                    Map.of("weight", 100, "podAffinityTerm", Map.of("topologyKey", "kubernetes.io/hostname",
                            "labelSelector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", "delayq-operator"))))))));

    /** Every opt-in object turned on, cluster-wide. */
    public static final Map<String, Object> EVERYTHING = Map.of(
            "serviceMonitor", Map.of("enabled", true, "labels", Map.of("release", "kube-prometheus-stack")),
            "podMonitor", Map.of("enabled", true),
            "prometheusRule", Map.of("enabled", true),
            "grafanaDashboard", Map.of("enabled", true),
            "keda", Map.of("enabled", true, "scaledObjects", List.of(
                    Map.of("name", "orders", "namespace", "shop", "minReplicaCount", 1, "maxReplicaCount", 20, "threshold", 500),
                    Map.of("name", "coupons"))));

    /** Every opt-in object turned on, limited to watched namespaces, with scheduling constraints. */
    public static final Map<String, Object> EVERYTHING_NAMESPACED = Map.of(
            "watchNamespaces", List.of("shop"),
            "serviceMonitor", Map.of("enabled", true),
            "prometheusRule", Map.of("enabled", true, "disabledAlerts", List.of("DelayqDeadLettersGrowing")),
            "grafanaDashboard", Map.of("enabled", true, "namespace", "monitoring"),
            "keda", Map.of("enabled", true, "scaledObjects", List.of(Map.of("name", "orders", "namespace", "shop"))),
            "nodeSelector", Map.of("kubernetes.io/os", "linux"),
            "tolerations", List.of(Map.of("key", "dedicated", "operator", "Equal", "value", "ops", "effect", "NoSchedule")),
            "imagePullSecrets", List.of(Map.of("name", "ghcr-pull")));

    public static List<Map<String, Object>> all() {
        return List.of(DEFAULTS, NAMESPACED, NO_LEADER_ELECTION, HA, EVERYTHING, EVERYTHING_NAMESPACED);
    }
}
