package io.delayq.operator.cluster;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ServedApisTest {
    /** What discovery on a Kubernetes 1.20 API server with the CRD installed answers (policy has v1beta1 only). */
    private static final Set<String> KUBERNETES_1_20 = Set.of("delayq.io/v1alpha1 DelayQueue", "apps/v1 Deployment", "v1 Service",
            "v1 Secret", "v1 Pod", "v1 Event", "coordination.k8s.io/v1 Lease", "policy/v1beta1 PodDisruptionBudget");

    private static ServedApis on(Set<String> served, boolean leaderElection) {
        return ServedApis.of((apiVersion, kind) -> served.contains(apiVersion + " " + kind), leaderElection);
    }

    @Test
    void kubernetes120RunsWithoutDisruptionBudgets() {
        ServedApis apis = on(KUBERNETES_1_20, true);

        assertThat(apis.disruptionBudgets()).isFalse();
        assertThat(apis.missing()).isEmpty();
        assertThat(apis.missingMessage()).isNull();
    }

    @Test
    void aServerWithPolicyV1GetsDisruptionBudgets() {
        Set<String> current = new java.util.HashSet<>(KUBERNETES_1_20);
        current.add("policy/v1 PodDisruptionBudget");

        assertThat(on(current, true)).isEqualTo(ServedApis.all());
    }

    @Test
    void aMissingCrdIsNamedWithHowToInstallIt() {
        Set<String> noCrd = new java.util.HashSet<>(KUBERNETES_1_20);
        noCrd.remove("delayq.io/v1alpha1 DelayQueue");

        ServedApis apis = on(noCrd, true);

        assertThat(apis.missing()).containsExactly("delayq.io/v1alpha1 DelayQueue");
        assertThat(apis.missingMessage()).contains("delayq.io/v1alpha1 DelayQueue").contains("crds/delayqueues.delayq.io-v1.yml")
                .doesNotContain("\n");
    }

    @Test
    void leasesAreRequiredOnlyWithLeaderElection() {
        Set<String> noLeases = new java.util.HashSet<>(KUBERNETES_1_20);
        noLeases.remove("coordination.k8s.io/v1 Lease");

        assertThat(on(noLeases, false).missing()).isEmpty();
        assertThat(on(noLeases, true).missing()).containsExactly("coordination.k8s.io/v1 Lease");
        assertThat(on(noLeases, true).missingMessage()).doesNotContain("install the DelayQueue CRD");
    }
}
