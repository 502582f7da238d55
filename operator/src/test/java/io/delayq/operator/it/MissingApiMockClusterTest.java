package io.delayq.operator.it;

import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.cluster.MissingApiException;
import io.delayq.operator.testing.MockCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An API server without the DelayQueue CRD: the operator refuses to start and says how to install it. */
@EnableKubernetesMockClient(crud = true)
class MissingApiMockClusterTest {
    static KubernetesClient client;
    static KubernetesMockServer server;

    @Test
    void withoutTheCrdTheOperatorDoesNotStartAndSaysWhy() {
        MockCluster.serveDiscovery(server, true);

        assertThatThrownBy(() -> MockCluster.startWatching(client, "shop"))
                .isInstanceOf(MissingApiException.class)
                .hasMessageContaining("delayq.io/v1alpha1 DelayQueue")
                .hasMessageContaining("crds/delayqueues.delayq.io-v1.yml");
    }
}
