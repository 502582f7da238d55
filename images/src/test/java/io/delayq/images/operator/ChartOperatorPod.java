package io.delayq.images.operator;

import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The operator Deployment as real Helm renders the chart (helm-java's native Helm). */
public final class ChartOperatorPod {
    public static final String RELEASE = "delayq";
    public static final String NAMESPACE = "delayq-system";
    public static final String CONTAINER = "operator";

    private ChartOperatorPod() {
    }

    /** A namespace that enforces the "restricted" Pod Security Standard, as the chart's pods are written for. */
    public static io.fabric8.kubernetes.api.model.Namespace restrictedNamespace(String name) {
        return new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName(name)
                .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build();
    }

    public static Path chart() {
        return Path.of(System.getProperty("delayq.repo.root", "..")).resolve("helm/delayq-operator").normalize();
    }

    /** {@code helm template delayq helm/delayq-operator -n delayq-system --set ...}, its one Deployment. */
    public static Deployment render(KubernetesClient client, Map<String, String> values) {
        var template = new Helm(chart()).template().withName(RELEASE).withNamespace(NAMESPACE);
        values.forEach(template::set);
        String yaml = template.call();
        List<HasMetadata> objects = client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
        List<Deployment> deployments = objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
        if (deployments.size() != 1) {
            throw new AssertionError("the chart should render one Deployment, rendered " + deployments.size());
        }
        return deployments.get(0);
    }
}
