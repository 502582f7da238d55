package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;

/** The chart run through real Helm (helm-java's native library): template, lint, show crds. */
public final class HelmChart {
    public static final String RELEASE = "delayq";
    public static final String NAMESPACE = "delayq-system";

    private final Path chart;
    private final Path scratch;

    /** @param scratch a folder for values files and chart copies (a JUnit @TempDir) */
    public HelmChart(Path chart, Path scratch) {
        this.chart = chart;
        this.scratch = scratch;
    }

    public static HelmChart of(Path scratch) {
        return new HelmChart(RepoPaths.chart(), scratch);
    }

    /** `helm template delayq <chart> -n delayq-system -f <values>`, parsed. */
    public Manifests render(Map<String, ?> values) {
        return new Manifests(Yaml.documents(renderText(values)));
    }

    public Manifests render() {
        return render(Map.of());
    }

    public String renderText(Map<String, ?> values) {
        Path file = valuesFile(values);
        return new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE).withValuesFile(file).call();
    }

    /**
     * `helm lint --strict` with these values. helm-java's lint reads only the chart's own
     * values.yaml, so the values are merged into that file of a copy of the chart.
     */
    public LintResult lint(Map<String, ?> values) {
        Path copy = copyChart();
        Path valuesYaml = copy.resolve("values.yaml");
        ObjectNode merged = (ObjectNode) Yaml.read(valuesYaml);
        merge(merged, Yaml.MAPPER.valueToTree(values));
        Yaml.write(valuesYaml, merged);
        return new Helm(copy).lint().strict().call();
    }

    /** `helm install --dry-run=client`: what an install would create and print, NOTES included. */
    public String installDryRun(Map<String, ?> values) {
        Path file = valuesFile(values);
        return new Helm(chart).install().withName("delayq-operator").withNamespace(NAMESPACE).withValuesFile(file)
                .dryRun().clientOnly().call().getOutput();
    }

    /** `helm show crds`: the CRDs exactly as Helm reads them from the chart's crds/ folder. */
    public String showCrds() {
        return Helm.show(chart.toString()).crds().call();
    }

    private Path valuesFile(Map<String, ?> values) {
        try {
            Path file = Files.createTempFile(scratch, "values-", ".yaml");
            Yaml.write(file, values);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deep copy with symbolic links resolved, as `helm package` would store them. */
    private Path copyChart() {
        try {
            Path target = Files.createTempDirectory(scratch, "chart-").resolve(chart.getFileName());
            try (Stream<Path> files = Files.walk(chart)) {
                for (Path source : (Iterable<Path>) files::iterator) {
                    Path dest = target.resolve(chart.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(dest);
                    } else {
                        Files.copy(source, dest, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void merge(ObjectNode base, JsonNode override) {
        Iterator<Map.Entry<String, JsonNode>> fields = override.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            JsonNode current = base.get(f.getKey());
            if (current instanceof ObjectNode obj && f.getValue().isObject()) {
                merge(obj, f.getValue());
            } else {
                base.set(f.getKey(), f.getValue());
            }
        }
    }
}
