package io.delayq.operator.testing;

import io.delayq.operator.DelayQueueOperator;
import io.delayq.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

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

    /**
     * The discovery answers a Kubernetes API server gives for the built-in APIs the operator uses (the mock answers
     * only for the CRDs it was given), as a current one serves them; {@code policyV1} false answers as 1.20 does.
     */
    public static void serveDiscovery(KubernetesMockServer server, boolean policyV1) {
        serve(server, "/api/v1", "v1", new String[][]{{"pods", "Pod"}, {"services", "Service"}, {"secrets", "Secret"},
                {"events", "Event"}, {"namespaces", "Namespace"}});
        serve(server, "/apis/apps/v1", "apps/v1", new String[][]{{"deployments", "Deployment"}});
        serve(server, "/apis/coordination.k8s.io/v1", "coordination.k8s.io/v1", new String[][]{{"leases", "Lease"}});
        if (policyV1) {
            serve(server, "/apis/policy/v1", "policy/v1", new String[][]{{"poddisruptionbudgets", "PodDisruptionBudget"}});
        }
    }

    private static void serve(KubernetesMockServer server, String path, String groupVersion, String[][] kinds) {
        var list = new io.fabric8.kubernetes.api.model.APIResourceListBuilder().withGroupVersion(groupVersion);
        for (String[] k : kinds) {
            list.addNewResource().withName(k[0]).withKind(k[1]).withNamespaced(!k[1].equals("Namespace")).endResource();
        }
        server.expect().get().withPath(path).andReturn(200, list.build()).always();
    }

    /**
     * The SDK first checks its Lease permissions with a SelfSubjectRulesReview, which an API server evaluates
     * against RBAC; the mock has no RBAC, so it answers with what the chart's Role grants (leases get/create/update/patch).
     */
    public static void grantLeaseRules(KubernetesMockServer server) {
        server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("get", "create", "update", "patch").endResourceRule()
                        .endStatus().build())
                .always();
    }

    /** A replica with leader election and short Lease timings (lease duration {@code leaseSeconds}, renew 3s, retry 500ms). */
    public static OperatorSettings leaderElected(String namespace, String leaseNamespace, String identity, long leaseSeconds,
                                                 Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(Map.of(
                "DELAYQ_WATCH_NAMESPACES", namespace,
                "DELAYQ_LEADER_ELECTION", "true",
                "DELAYQ_LEADER_ELECTION_NAMESPACE", leaseNamespace,
                "DELAYQ_LEADER_ELECTION_IDENTITY", identity,
                "DELAYQ_LEADER_ELECTION_LEASE_DURATION", leaseSeconds + "s",
                "DELAYQ_LEADER_ELECTION_RENEW_DEADLINE", "3s",
                "DELAYQ_LEADER_ELECTION_RETRY_PERIOD", "500ms"));
        env.putAll(extra);
        return OperatorSettings.fromEnv(env).withMetricsPort(0).withBacklogInterval(Duration.ofSeconds(1));
    }

    /** Each worker Deployment of a DelayQueue and the DELAYQ_SHARDS its workers are told. */
    public static Map<String, String> shardsByDeployment(KubernetesClient client, String namespace, String delayQueue) {
        Map<String, String> m = new TreeMap<>();
        for (Deployment d : client.apps().deployments().inNamespace(namespace).withLabel("app.kubernetes.io/instance", delayQueue)
                .list().getItems()) {
            m.put(d.getMetadata().getName(), d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
                    .filter(e -> e.getName().equals("DELAYQ_SHARDS")).map(EnvVar::getValue).findFirst().orElse("?"));
        }
        return m;
    }
}
