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
     * The SDK first checks its Lease permissions with a SelfSubjectRulesReview, which an API server evaluates
     * against RBAC; the mock has no RBAC, so it answers with what the chart's Role grants (leases get/create/update).
     */
    public static void grantLeaseRules(KubernetesMockServer server) {
        server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("get", "create", "update").endResourceRule()
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
