package io.delayq.operator.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Asks the API server's discovery endpoints what it serves (allowed to every authenticated user). */
public final class ApiDiscovery {
    private ApiDiscovery() {
    }

    public static ServedApis discover(KubernetesClient client, boolean leaderElection) {
        return ServedApis.of(client::supports, leaderElection);
    }
}
