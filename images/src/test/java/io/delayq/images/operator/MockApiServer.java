package io.delayq.images.operator;

import io.delayq.images.podman.PodmanPod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.delayq.operator.testing.MockCluster;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * Fabric8's mock API server in CRUD mode with the chart's CRD, reachable from containers: what
 * the operator container talks to instead of a cluster.
 */
public final class MockApiServer implements AutoCloseable {
    private final KubernetesMockServer server;
    private final KubernetesClient client;

    private MockApiServer() {
        // What @EnableKubernetesMockClient(crud = true) builds: expectations first, then the CRUD store.
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations, new KubernetesMixedDispatcher(expectations), true);
        server.init();
        client = server.createClient();
        try (InputStream in = Files.newInputStream(ChartOperatorPod.chart().resolve("crds/delayqueues.delayq.io-v1.yml"))) {
            client.apiextensions().v1().customResourceDefinitions().load(in).create();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The SDK checks its Lease permissions before it elects, and the operator asks discovery what the server
        // serves; the mock has neither RBAC nor built-in discovery, so it answers as a current cluster with the
        // chart's leader-election Role would.
        MockCluster.grantLeaseRules(server);
        MockCluster.serveDiscovery(server, true);
    }

    public static MockApiServer start() {
        return new MockApiServer();
    }

    public KubernetesClient client() {
        return client;
    }

    /**
     * In a cluster the kubelet mounts a service-account token and sets KUBERNETES_SERVICE_HOST/PORT;
     * here the operator's client is pointed at the mock through Fabric8's own variables.
     */
    public Map<String, String> clientEnvForContainers(String namespace) {
        URI master = URI.create(client.getConfiguration().getMasterUrl());
        return Map.of("KUBERNETES_MASTER", master.getScheme() + "://" + PodmanPod.HOST + ":" + master.getPort(),
                "KUBERNETES_TRUST_CERTIFICATES", "true",
                "KUBERNETES_AUTH_TRYKUBECONFIG", "false",
                "KUBERNETES_AUTH_TRYSERVICEACCOUNT", "false",
                "KUBERNETES_NAMESPACE", namespace);
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
