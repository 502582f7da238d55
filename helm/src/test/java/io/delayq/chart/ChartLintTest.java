package io.delayq.chart;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `helm lint --strict` passes, and `helm template` renders, over every values set. */
class ChartLintTest {
    @TempDir
    Path scratch;

    static List<Map<String, Object>> valueSets() {
        return ValueSets.all();
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void lintsStrictlyWithoutFindings(Map<String, Object> values) {
        LintResult result = HelmChart.of(scratch).lint(values);

        assertThat(result.isFailed()).as("lint failed: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).as("strict lint findings")
                .noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void rendersEveryObjectWithKindNameAndLabels(Map<String, Object> values) {
        Manifests manifests = HelmChart.of(scratch).render(values);

        assertThat(manifests.objects()).isNotEmpty();
        assertThat(manifests.objects()).allSatisfy(o -> {
            assertThat(o.path("apiVersion").asText()).isNotBlank();
            assertThat(o.at("/metadata/name").asText()).as("name of %s", o.path("kind")).isNotBlank();
            assertThat(o.at("/metadata/labels/app.kubernetes.io~1part-of").asText()).as("labels of %s", o.path("kind")).isEqualTo("delayq");
        });
    }
}
