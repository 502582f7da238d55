package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** Least-privilege RBAC: no wildcards, exactly the permissions the operator uses, cluster-wide or per namespace. */
class RbacTest {
    private static final String ROLE = "delayq-delayq-operator";
    private static final String LEADER_ROLE = ROLE + "-leader-election";
    private static final Set<String> WRITE = Set.of("create", "update", "patch", "delete", "deletecollection", "escalate", "bind", "impersonate");

    @TempDir
    Path scratch;

    static List<Map<String, Object>> valueSets() {
        return ValueSets.all();
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void noRuleUsesAWildcard(Map<String, Object> values) {
        List<JsonNode> rules = allRules(HelmChart.of(scratch).render(values));

        assertThat(rules).isNotEmpty().allSatisfy(rule -> {
            for (String field : List.of("apiGroups", "resources", "verbs", "resourceNames", "nonResourceURLs")) {
                assertThat(rule.path(field).toString()).as("%s of %s", field, rule).doesNotContain("*");
            }
        });
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void secretsAreReadOnlyAndNothingElseIsWrittenBeyondOwnedObjects(Map<String, Object> values) {
        Map<String, Set<String>> perms = permissions(HelmChart.of(scratch).render(values), List.of("ClusterRole", "Role"));

        assertThat(perms.get("core/secrets")).containsExactlyInAnyOrder("get", "list", "watch");
        // worker pods are only listed (their CrashLoopBackOff reaches the DelayQueue's status), never written
        assertThat(perms.get("core/pods")).containsExactly("list");
        assertThat(perms.keySet()).doesNotContain("core/pods/exec", "core/pods/log", "core/configmaps", "rbac.authorization.k8s.io/roles",
                "rbac.authorization.k8s.io/clusterroles", "apiextensions.k8s.io/customresourcedefinitions");
        perms.forEach((resource, verbs) -> assertThat(verbs).as(resource)
                .doesNotContain("escalate", "bind", "impersonate", "deletecollection"));
    }

    @Test
    void clusterWideByDefaultWithExactlyTheOperatorsPermissions() {
        Manifests m = HelmChart.of(scratch).render();

        assertThat(m.ofKind("ClusterRole")).hasSize(1);
        assertThat(m.ofKind("Role")).extracting(r -> r.at("/metadata/name").asText()).containsExactly(LEADER_ROLE);
        assertThat(permissions(m, List.of("ClusterRole"))).containsOnly(
                entry("delayq.io/delayqueues", verbs("get", "list", "watch", "update", "patch")),
                entry("delayq.io/delayqueues/status", verbs("get", "update", "patch")),
                entry("delayq.io/delayqueues/finalizers", verbs("update")),
                entry("apps/deployments", verbs("get", "list", "watch", "create", "update", "patch", "delete")),
                entry("core/services", verbs("get", "list", "watch", "create", "update", "patch", "delete")),
                entry("policy/poddisruptionbudgets", verbs("get", "list", "watch", "create", "update", "patch", "delete")),
                entry("core/secrets", verbs("get", "list", "watch")),
                entry("core/pods", verbs("list")),
                entry("core/events", verbs("create", "patch")));
        JsonNode binding = m.one("ClusterRoleBinding");
        assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("ClusterRole");
        assertThat(binding.at("/roleRef/name").asText()).isEqualTo(ROLE);
        assertBoundToOperator(m, binding);
        assertThat(m.operatorEnv("DELAYQ_WATCH_NAMESPACES")).isEmpty();
    }

    @Test
    void watchNamespacesGiveOneRolePerNamespaceAndNoClusterAccess() {
        Manifests m = HelmChart.of(scratch).render(ValueSets.NAMESPACED);

        assertThat(m.ofKind("ClusterRole")).isEmpty();
        assertThat(m.ofKind("ClusterRoleBinding")).isEmpty();
        for (String ns : List.of("shop", "bank")) {
            JsonNode role = m.ofKind("Role").stream().filter(r -> r.at("/metadata/namespace").asText().equals(ns)).findFirst()
                    .orElseThrow(() -> new AssertionError("no Role in " + ns + ": " + m.names()));
            assertThat(role.at("/metadata/name").asText()).isEqualTo(ROLE);
            assertThat(permissions(List.of(role)).keySet()).contains("delayq.io/delayqueues", "apps/deployments", "core/secrets");
            assertThat(permissions(List.of(role)).keySet()).doesNotContain("coordination.k8s.io/leases");
            JsonNode binding = m.ofKind("RoleBinding").stream().filter(b -> b.at("/metadata/namespace").asText().equals(ns)).findFirst()
                    .orElseThrow(() -> new AssertionError("no RoleBinding in " + ns));
            assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("Role");
            assertThat(binding.at("/roleRef/name").asText()).isEqualTo(ROLE);
            assertBoundToOperator(m, binding);
        }
        // Nothing namespaced-to-watched outside the list (the leader Lease role stays in the release namespace).
        assertThat(m.ofKind("Role")).extracting(r -> r.at("/metadata/namespace").asText())
                .containsExactlyInAnyOrder("shop", "bank", HelmChart.NAMESPACE);
        assertThat(m.operatorEnv("DELAYQ_WATCH_NAMESPACES")).isEqualTo("shop,bank");
    }

    @Test
    void leaderElectionGetsLeasesInTheReleaseNamespaceOnly() {
        Manifests m = HelmChart.of(scratch).render();

        JsonNode role = m.get("Role", LEADER_ROLE);
        assertThat(role.at("/metadata/namespace").asText()).isEqualTo(HelmChart.NAMESPACE);
        // The verbs JOSDK's LeaderElectionManager checks for at start-up, and the PATCH that Fabric8's LeaseLock renews with.
        assertThat(permissions(List.of(role))).containsOnly(entry("coordination.k8s.io/leases", verbs("get", "create", "update", "patch")));
        // get, update and patch only on this release's Lease, the one the operator is told to use.
        String lease = m.operatorEnv("DELAYQ_LEADER_ELECTION_LEASE");
        assertThat(lease).isEqualTo("delayq-delayq-operator-leader");
        for (JsonNode rule : role.path("rules")) {
            boolean onlyCreate = rule.path("verbs").size() == 1 && rule.path("verbs").get(0).asText().equals("create");
            assertThat(rule.path("resourceNames").toString()).as("rule %s", rule)
                    .isEqualTo(onlyCreate ? "" : "[\"" + lease + "\"]");
        }
        assertThat(m.operatorContainer().path("env").toString()).contains("DELAYQ_LEADER_ELECTION_NAMESPACE")
                .contains("metadata.namespace");
        assertBoundToOperator(m, m.get("RoleBinding", LEADER_ROLE));
        assertThat(permissions(m, List.of("ClusterRole"))).doesNotContainKey("coordination.k8s.io/leases");
        assertThat(m.operatorEnv("DELAYQ_LEADER_ELECTION")).isEqualTo("true");
    }

    @Test
    void withoutLeaderElectionThereIsNoLeaseAccess() {
        Manifests m = HelmChart.of(scratch).render(ValueSets.NO_LEADER_ELECTION);

        assertThat(m.find("Role", LEADER_ROLE)).isEmpty();
        assertThat(m.operatorContainer().path("env").toString()).doesNotContain("DELAYQ_LEADER_ELECTION_LEASE");
        assertThat(permissions(m, List.of("ClusterRole", "Role"))).doesNotContainKey("coordination.k8s.io/leases");
        assertThat(m.operatorEnv("DELAYQ_LEADER_ELECTION")).isEqualTo("false");
    }

    @Test
    void rbacCanBeLeftToTheCluster() {
        Manifests m = HelmChart.of(scratch).render(Map.of("rbac", Map.of("create", false)));

        assertThat(m.kinds()).doesNotContain("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding");
    }

    @Test
    void writesGoOnlyToWhatADelayQueueOwnsAndToEvents() {
        Map<String, Set<String>> perms = permissions(HelmChart.of(scratch).render(), List.of("ClusterRole", "Role"));

        Set<String> written = new TreeSet<>();
        perms.forEach((resource, verbs) -> {
            if (verbs.stream().anyMatch(WRITE::contains)) {
                written.add(resource);
            }
        });
        assertThat(written).containsExactlyInAnyOrder("delayq.io/delayqueues", "delayq.io/delayqueues/status",
                "delayq.io/delayqueues/finalizers", "apps/deployments", "core/services", "policy/poddisruptionbudgets",
                "core/events", "coordination.k8s.io/leases");
    }

    private static void assertBoundToOperator(Manifests m, JsonNode binding) {
        JsonNode sa = m.one("ServiceAccount");
        assertThat(binding.path("subjects")).hasSize(1);
        JsonNode subject = binding.path("subjects").get(0);
        assertThat(subject.path("kind").asText()).isEqualTo("ServiceAccount");
        assertThat(subject.path("name").asText()).isEqualTo(sa.at("/metadata/name").asText());
        assertThat(subject.path("namespace").asText()).isEqualTo(HelmChart.NAMESPACE);
        assertThat(m.one("Deployment").at("/spec/template/spec/serviceAccountName").asText()).isEqualTo(sa.at("/metadata/name").asText());
    }

    private static List<JsonNode> allRules(Manifests m) {
        return List.of("ClusterRole", "Role").stream().flatMap(k -> m.ofKind(k).stream())
                .flatMap(r -> java.util.stream.StreamSupport.stream(r.path("rules").spliterator(), false)).toList();
    }

    private static Map<String, Set<String>> permissions(Manifests m, List<String> kinds) {
        return permissions(kinds.stream().flatMap(k -> m.ofKind(k).stream()).toList());
    }

    /** "group/resource" → verbs, with the core group spelled "core". */
    private static Map<String, Set<String>> permissions(List<JsonNode> roles) {
        Map<String, Set<String>> perms = new TreeMap<>();
        for (JsonNode role : roles) {
            for (JsonNode rule : role.path("rules")) {
                for (JsonNode group : rule.path("apiGroups")) {
                    for (JsonNode resource : rule.path("resources")) {
                        String key = (group.asText().isEmpty() ? "core" : group.asText()) + "/" + resource.asText();
                        rule.path("verbs").forEach(v -> perms.computeIfAbsent(key, k -> new TreeSet<>()).add(v.asText()));
                    }
                }
            }
        }
        return perms;
    }

    private static Set<String> verbs(String... verbs) {
        return new TreeSet<>(List.of(verbs));
    }
}
