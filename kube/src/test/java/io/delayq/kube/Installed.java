package io.delayq.kube;

import com.marcnuri.helm.Helm;
import io.delayq.kube.cluster.RealCluster;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the suite's classes share on the one cluster of the run, installed by whichever class comes first: the
 * CRD as generated, and the chart's release (its ServiceAccount and RBAC are what the operator runs as).
 */
final class Installed {
    static final String OPERATOR_NAMESPACE = "delayq-system";
    static final String RELEASE = "delayq";
    private static boolean chart;

    private Installed() {
    }

    /** The generated CRD, created through the API as `kubectl create -f` would, and Established. */
    static synchronized CustomResourceDefinition crd(KubernetesClient client) {
        CustomResourceDefinition crd;
        try (InputStream in = Files.newInputStream(Repo.CRD)) {
            crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var existing = client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName());
        if (existing.get() == null) {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        return existing.waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 60, TimeUnit.SECONDS);
    }

    /** {@code helm install} of the chart into {@value #OPERATOR_NAMESPACE}, once. */
    static synchronized void chart(RealCluster cluster) {
        if (chart) {
            return;
        }
        new Helm(Repo.CHART).install().withName(RELEASE).withNamespace(OPERATOR_NAMESPACE).createNamespace()
                .withKubeConfig(cluster.kubeconfig())
                .call();
        chart = true;
    }

    /** The operator's settings as the chart's Deployment gives them (valueFrom resolved as the kubelet would). */
    static Map<String, String> chartOperatorEnv(KubernetesClient client) {
        Deployment d = operatorDeployment(client);
        Map<String, String> env = new LinkedHashMap<>();
        for (var e : d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()) {
            if (e.getValue() != null) {
                env.put(e.getName(), e.getValue());
            } else if (e.getValueFrom() != null && e.getValueFrom().getFieldRef() != null
                    && "metadata.namespace".equals(e.getValueFrom().getFieldRef().getFieldPath())) {
                env.put(e.getName(), OPERATOR_NAMESPACE);
            }
        }
        return env;
    }

    static String serviceAccount(KubernetesClient client) {
        return operatorDeployment(client).getSpec().getTemplate().getSpec().getServiceAccountName();
    }

    private static Deployment operatorDeployment(KubernetesClient client) {
        return client.apps().deployments().inNamespace(OPERATOR_NAMESPACE).withLabel("app.kubernetes.io/instance", RELEASE)
                .list().getItems().stream()
                .filter(x -> x.getSpec().getTemplate().getSpec().getContainers().get(0).getName().equals("operator"))
                .findFirst().orElseThrow();
    }

    static void namespace(KubernetesClient client, String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }
}
