package io.delayq.worker.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The samples of a Prometheus text exposition, parsed enough to look series up by name and labels. */
public final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)(?:\\s+\\d+)?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final String text;

    public PrometheusText(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
    }

    public String text() {
        return text;
    }

    /** Samples of {@code name} whose labels include all of {@code labels}. */
    public List<Sample> find(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The value of the one series of {@code name} with these labels; fails when there is none or several. */
    public double value(String name, Map<String, String> labels) {
        List<Sample> found = find(name, labels);
        if (found.size() != 1) {
            throw new AssertionError("expected one series " + name + labels + ", found " + found.size());
        }
        return found.get(0).value();
    }

    /** Every label name any series of {@code name} carries. */
    public java.util.Set<String> labelNames(String name) {
        java.util.Set<String> names = new java.util.TreeSet<>();
        samples.stream().filter(s -> s.name().equals(name)).forEach(s -> names.addAll(s.labels().keySet()));
        return names;
    }

    /** The TYPE line of a metric family, e.g. "counter" or "histogram". */
    public String type(String family) {
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE " + family + " ")) {
                return line.substring(("# TYPE " + family + " ").length()).trim();
            }
        }
        return null;
    }
}
