package io.delayq.kube;

import io.delayq.kube.cluster.RealCluster;
import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The operator in this JVM as the chart installs it: the settings of the chart's Deployment, and every request
 * made as the chart's ServiceAccount, so that the real RBAC authorizer judges the chart's rules.
 */
final class ChartOperator implements AutoCloseable {
    final DelayQueueOperator operator;
    final String serviceAccount;

    private ChartOperator(DelayQueueOperator operator, String serviceAccount) {
        this.operator = operator;
        this.serviceAccount = serviceAccount;
    }

    /**
     * @param overrides settings beyond the chart's (a replica identity, shorter leader-election timings)
     * @param onLeadershipLost what a lost Lease does instead of ending the JVM
     */
    static ChartOperator start(RealCluster cluster, Map<String, String> overrides, Runnable onLeadershipLost) {
        Installed.chart(cluster);
        Map<String, String> env;
        String sa;
        try (KubernetesClient admin = cluster.adminClient()) {
            Installed.crd(admin);
            env = new HashMap<>(Installed.chartOperatorEnv(admin));
            sa = Installed.serviceAccount(admin);
        }
        env.putAll(overrides);
        OperatorSettings settings = OperatorSettings.fromEnv(env).withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(2));
        KubernetesClient client = new KubernetesClientBuilder().withConfig(cluster.configAs(Installed.OPERATOR_NAMESPACE, sa)).build();
        return new ChartOperator(DelayQueueOperator.start(client, settings, true, onLeadershipLost), sa);
    }

    /** The user name the API server sees for this operator's requests. */
    String user() {
        return "system:serviceaccount:" + Installed.OPERATOR_NAMESPACE + ":" + serviceAccount;
    }

    @Override
    public void close() {
        operator.close();
    }
}
