package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example DelayQueues in crds/examples (the ones NOTES.txt and the README point to) fit the
 * chart: they are DelayQueues of the CRD's group and version, and each one that leaves scaling to an
 * external autoscaler gets a ScaledObject on the KEDA query for its own namespace and name.
 */
class ExamplesTest {
    @TempDir
    Path scratch;

    @Test
    void examplesAreDelayQueuesOfTheShippedCrd() throws IOException {
        List<JsonNode> examples = examples();

        assertThat(examples).extracting(e -> e.at("/metadata/name").asText())
                .contains("order-timeout", "withdrawal-review", "coupon-expiry");
        assertThat(examples).allSatisfy(e -> {
            assertThat(e.path("apiVersion").asText()).isEqualTo("delayq.io/v1alpha1");
            assertThat(e.path("kind").asText()).isEqualTo("DelayQueue");
        });
    }

    @Test
    void externallyScaledExamplesGetTheirKedaQuery() throws IOException {
        List<JsonNode> external = examples().stream()
                .filter(e -> "External".equals(e.at("/spec/autoscaling/mode").asText())).toList();
        assertThat(external).as("examples with autoscaling.mode External").isNotEmpty();
        List<Map<String, Object>> scaled = new ArrayList<>();
        for (JsonNode e : external) {
            scaled.add(Map.of("name", e.at("/metadata/name").asText(), "namespace", e.at("/metadata/namespace").asText()));
        }

        Manifests m = HelmChart.of(scratch).render(Map.of("keda", Map.of("enabled", true, "scaledObjects", scaled)));

        for (JsonNode e : external) {
            String ns = e.at("/metadata/namespace").asText();
            String name = e.at("/metadata/name").asText();
            JsonNode so = m.get("ScaledObject", name + "-delayq");
            assertThat(so.at("/metadata/namespace").asText()).isEqualTo(ns);
            assertThat(so.at("/spec/scaleTargetRef/name").asText()).isEqualTo(name);
            assertThat(so.at("/spec/triggers/0/metadata/query").asText())
                    .isEqualTo("sum(delayq_queue_due_tasks{namespace=\"" + ns + "\",delayqueue=\"" + name + "\"})");
        }
    }

    private static List<JsonNode> examples() throws IOException {
        try (Stream<Path> files = Files.list(RepoPaths.crdExamples())) {
            return files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted()
                    .flatMap(f -> {
                        try {
                            return Yaml.documents(Files.readString(f)).stream();
                        } catch (IOException ex) {
                            throw new java.io.UncheckedIOException(ex);
                        }
                    }).toList();
        }
    }
}
