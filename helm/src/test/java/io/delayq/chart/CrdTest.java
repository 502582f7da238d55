package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One source of truth for the CRD: the chart's crds/ entry is a link to the file the operator's
 * build generates into crds/ at the repository root, and Helm reads exactly those bytes.
 */
class CrdTest {
    @TempDir
    Path scratch;

    @Test
    void chartCrdIsByteIdenticalToTheGeneratedFile() throws IOException {
        Path generated = RepoPaths.generatedCrd();
        Path inChart = RepoPaths.chart().resolve("crds").resolve(generated.getFileName());

        assertThat(generated).as("the operator build generates %s", generated).isRegularFile();
        assertThat(Files.mismatch(inChart, generated)).as("first differing byte").isEqualTo(-1L);
    }

    @Test
    void chartCrdIsALinkToTheGeneratedFileNotACopy() throws IOException {
        Path inChart = RepoPaths.chart().resolve("crds/delayqueues.delayq.io-v1.yml");

        assertThat(Files.isSymbolicLink(inChart)).as("%s is a symbolic link", inChart).isTrue();
        assertThat(inChart.getParent().resolve(Files.readSymbolicLink(inChart)).toRealPath())
                .isEqualTo(RepoPaths.generatedCrd().toRealPath());
    }

    @Test
    void helmReadsExactlyTheGeneratedBytes() throws IOException {
        String shown = HelmChart.of(scratch).showCrds();
        String generated = Files.readString(RepoPaths.generatedCrd(), StandardCharsets.UTF_8);

        // `helm show crds` prints each CRD file after a `---` line.
        String body = shown.startsWith("---\n") && !generated.startsWith("---") ? shown.substring(4) : shown;
        assertThat(body.stripTrailing()).isEqualTo(generated.stripTrailing());
    }

    @Test
    void chartCrdsFolderHoldsOnlyTheCrd() throws IOException {
        // Helm installs every YAML file under crds/ before the templates; the examples must not be among them.
        try (Stream<Path> files = Files.walk(RepoPaths.chart().resolve("crds"))) {
            List<String> names = files.filter(p -> !Files.isDirectory(p)).map(p -> p.getFileName().toString()).toList();
            assertThat(names).containsExactly("delayqueues.delayq.io-v1.yml");
        }
    }

    @Test
    void theCrdIsTheDelayQueueWithTheScaleSubresourceKedaTargets() {
        List<JsonNode> docs = Yaml.documents(HelmChart.of(scratch).showCrds());

        assertThat(docs).hasSize(1);
        JsonNode crd = docs.get(0);
        assertThat(crd.path("kind").asText()).isEqualTo("CustomResourceDefinition");
        assertThat(crd.at("/metadata/name").asText()).isEqualTo("delayqueues.delayq.io");
        assertThat(crd.at("/spec/names/kind").asText()).isEqualTo("DelayQueue");
        assertThat(crd.at("/spec/names/shortNames").toString()).contains("\"dq\"");
        JsonNode v1alpha1 = null;
        for (JsonNode v : crd.at("/spec/versions")) {
            if (v.path("name").asText().equals("v1alpha1")) {
                v1alpha1 = v;
            }
        }
        assertThat(v1alpha1).as("version v1alpha1").isNotNull();
        assertThat(v1alpha1.path("served").asBoolean()).isTrue();
        assertThat(v1alpha1.at("/subresources/scale/specReplicasPath").asText()).isNotBlank();
        assertThat(v1alpha1.at("/subresources/status").isObject()).isTrue();
    }

    @Test
    void theCrdIsNotATemplate() {
        // In crds/, Helm installs it before the templates and never deletes it on uninstall (the user's queues survive).
        assertThat(HelmChart.of(scratch).render().kinds()).doesNotContain("CustomResourceDefinition");
    }
}
