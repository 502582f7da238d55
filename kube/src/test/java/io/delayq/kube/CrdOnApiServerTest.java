package io.delayq.kube;

import io.delayq.kube.cluster.RealCluster;
import io.delayq.kube.cluster.RealKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The generated CRD on a real API server: accepted as a structural schema and Established, the server fills in
 * the schema's defaults and prunes unknown fields, refuses what the schema refuses with its own field error, and
 * kubectl prints the printer columns.
 */
@RealKubernetes
class CrdOnApiServerTest {
    private static final String NS = "crd-test";
    private static final ResourceDefinitionContext DQ = new ResourceDefinitionContext.Builder()
            .withGroup("delayq.io").withVersion("v1alpha1").withPlural("delayqueues").withKind("DelayQueue").withNamespaced(true).build();

    private static KubernetesClient client;
    private static CustomResourceDefinition crd;

    @BeforeAll
    static void install(RealCluster cluster) {
        client = cluster.adminClient();
        crd = Installed.crd(client);
        Installed.namespace(client, NS);
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    private static GenericKubernetesResource create(String yaml) {
        return client.genericKubernetesResources(DQ).inNamespace(NS).resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    @Test
    void theCrdIsAStructuralSchemaAndEstablished() {
        var conditions = crd.getStatus().getConditions();

        assertThat(conditions).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("NamesAccepted");
            assertThat(c.getStatus()).isEqualTo("True");
        });
        assertThat(conditions).noneMatch(c -> "NonStructuralSchema".equals(c.getType()));
        assertThat(crd.getSpec().getVersions().get(0).getSubresources().getScale()).isNotNull();
    }

    @Test
    void theServerAppliesTheSchemasDefaultsAndPrunesUnknownFields() {
        GenericKubernetesResource stored = create("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: defaults
                spec:
                  shards: 4
                  noSuchField: dropped
                  redis:
                    url: redis://redis:6379
                    alsoUnknown: dropped
                """);

        Map<String, Object> spec = stored.get("spec");
        assertThat(spec).doesNotContainKey("noSuchField");
        assertThat((Map<String, Object>) spec.get("redis")).doesNotContainKey("alsoUnknown");
        Map<String, JSONSchemaProps> declared = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema()
                .getProperties().get("spec").getProperties();
        Map<String, Object> defaults = new java.util.TreeMap<>();
        declared.forEach((field, schema) -> {
            if (schema.getDefault() != null) {
                defaults.put(field, Serialization.unmarshal(Serialization.asJson(schema.getDefault()), Object.class));
            }
        });
        assertThat(defaults).as("the CRD declares defaults for spec fields").isNotEmpty();
        defaults.forEach((field, value) -> assertThat(spec.get(field)).as("spec." + field + " defaulted by the server")
                .usingRecursiveComparison().isEqualTo(value));
    }

    @Test
    void theSchemaRefusesABadFieldWithTheServersFieldError() {
        assertThatThrownBy(() -> create("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: too-many-shards
                spec:
                  shards: 5000
                  redis:
                    url: redis://redis:6379
                """))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getMessage()).contains("spec.shards").contains("1024");
                });
        assertThat(client.genericKubernetesResources(DQ).inNamespace(NS).withName("too-many-shards").get()).isNull();
    }

    @Test
    void kubectlPrintsThePrinterColumns(RealCluster cluster) {
        create("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata:
                  name: columns
                spec:
                  shards: 12
                  redis:
                    url: redis://redis:6379
                """);

        String out = cluster.kubectl("get", "dq", "columns", "-n", NS).requireSuccess().output();

        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        List<String> expected = new java.util.ArrayList<>(List.of("NAME"));
        crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns().stream()
                .filter(c -> c.getPriority() == null || c.getPriority() == 0)
                .map(CustomResourceColumnDefinition::getName).map(n -> n.toUpperCase(java.util.Locale.ROOT)).forEach(expected::add);
        assertThat(Arrays.asList(lines.get(0).trim().split("\\s{2,}"))).as(out).isEqualTo(expected);
        List<String> row = Arrays.asList(lines.get(1).trim().split("\\s+"));
        assertThat(row.get(0)).isEqualTo("columns");
        assertThat(row).as("the Shards column").contains("12");
    }
}
