package io.delayq.chart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `helm install --dry-run=client` goes through, and NOTES.txt tells the next steps for what was installed. */
class NotesTest {
    @TempDir
    Path scratch;

    @Test
    void defaultInstallPointsToTheExamplesMetricsAndOptIns() {
        String out = HelmChart.of(scratch).installDryRun(ValueSets.DEFAULTS);
        String notes = out.substring(out.indexOf("NOTES:"));

        assertThat(notes).contains("installed as delayq-operator in namespace " + HelmChart.NAMESPACE)
                .contains("watches DelayQueue resources in all namespaces")
                .contains("crds/examples/", "order-timeout.yaml", "withdrawal-review.yaml", "coupon-expiry.yaml")
                .contains("kubectl get dq -A")
                .contains("port-forward service/delayq-operator-metrics 8080")
                .contains("--set serviceMonitor.enabled=true", "--set prometheusRule.enabled=true", "--set grafanaDashboard.enabled=true")
                .doesNotContain("WARNING");
        // The example files NOTES names exist.
        for (String example : new String[] {"order-timeout.yaml", "withdrawal-review.yaml", "coupon-expiry.yaml"}) {
            assertThat(RepoPaths.crdExamples().resolve(example)).isRegularFile();
        }
    }

    @Test
    void notesFollowTheValues() {
        String namespaced = HelmChart.of(scratch).installDryRun(ValueSets.EVERYTHING_NAMESPACED);
        assertThat(namespaced).contains("watches DelayQueue resources in namespaces shop")
                .contains("Only DelayQueues in shop are reconciled")
                .contains("PrometheusRule delayq-operator created (left out: DelayqDeadLettersGrowing)")
                .contains("ConfigMap delayq-operator-dashboard in monitoring")
                .contains("shop/orders: 0..10 replicas, 1000 due tasks per replica");

        String alertsOnly = HelmChart.of(scratch).installDryRun(Map.of("prometheusRule", Map.of("enabled", true),
                "leaderElection", Map.of("enabled", false)));
        assertThat(alertsOnly).contains("WARNING: the alerts read the operator's and the workers' metrics")
                .contains("Leader election is off: keep replicaCount at 1.");
    }
}
