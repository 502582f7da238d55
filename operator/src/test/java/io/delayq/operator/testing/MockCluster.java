package io.delayq.operator.testing;

import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/** The set-up every test of the real operator against Fabric8's mock API server shares. */
public final class MockCluster {
    private MockCluster() {
    }

    /** Registers the generated CRD: without it the mock does not protect {@code status} on spec writes. */
    public static void installCrd(KubernetesClient client) throws IOException {
        try (InputStream in = Files.newInputStream(CrdPaths.generated())) {
            client.apiextensions().v1().customResourceDefinitions().load(in).create();
        }
    }

    /** An operator that watches only {@code namespace} (so tests in other namespaces stay invisible), backlog every second. */
    public static DelayQueueOperator startWatching(KubernetesClient client, String namespace) {
        return DelayQueueOperator.start(client, settings(namespace), false);
    }

    /** The settings of {@link #startWatching}, for a test that changes one. */
    public static OperatorSettings settings(String namespace) {
        return OperatorSettings.fromEnv(Map.of("DELAYQ_WATCH_NAMESPACES", namespace))
                .withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(1));
    }
}
