package io.delayq.chart;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** values.yaml documents every field: each setting has a comment right above it. */
class ValuesDocumentationTest {
    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z][A-Za-z0-9_]*):(.*)$");
    /** Values that are Kubernetes objects taken as they are: their inner keys are Kubernetes' fields, not the chart's. */
    private static final Set<String> FREE_FORM = Set.of("resources", "console.resources", "podSecurityContext", "securityContext", "grafanaDashboard.labels",
            "probes.startup", "probes.liveness", "probes.readiness");

    @Test
    void everySettingHasACommentAbove() throws IOException {
        List<String> lines = Files.readAllLines(RepoPaths.chart().resolve("values.yaml"));
        List<String> undocumented = new ArrayList<>();
        Deque<int[]> indents = new ArrayDeque<>();
        Deque<String> path = new ArrayDeque<>();
        String skipUnder = null;
        int settings = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = KEY.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            int indent = m.group(1).length();
            while (!indents.isEmpty() && indents.peek()[0] >= indent) {
                indents.pop();
                path.pop();
            }
            String name = path.isEmpty() ? m.group(2) : String.join(".", reversed(path)) + "." + m.group(2);
            indents.push(new int[] {indent});
            path.push(m.group(2));
            if (skipUnder != null && name.startsWith(skipUnder + ".")) {
                continue;
            }
            skipUnder = null;
            boolean group = m.group(3).isBlank() && !nextIsListItem(lines, i) && !FREE_FORM.contains(name);
            if (group) {
                continue;
            }
            if (FREE_FORM.contains(name)) {
                skipUnder = name;
            }
            settings++;
            if (!previousIsComment(lines, i)) {
                undocumented.add(name + " (line " + (i + 1) + ")");
            }
        }
        assertThat(settings).as("settings found").isGreaterThan(40);
        assertThat(undocumented).as("settings without a comment above").isEmpty();
    }

    @Test
    void theConventionalFieldsAreThere() {
        var values = Yaml.read(RepoPaths.chart().resolve("values.yaml"));

        for (String field : List.of("image", "imagePullSecrets", "resources", "nodeSelector", "tolerations", "affinity",
                "watchNamespaces", "leaderElection", "metrics", "podSecurityContext", "securityContext", "serviceMonitor",
                "podMonitor", "prometheusRule", "grafanaDashboard", "keda")) {
            assertThat(values.has(field)).as(field).isTrue();
        }
        for (String optIn : List.of("serviceMonitor", "podMonitor", "prometheusRule", "grafanaDashboard", "keda")) {
            assertThat(values.at("/" + optIn + "/enabled").asBoolean(true)).as("%s is off by default", optIn).isFalse();
        }
    }

    private static boolean nextIsListItem(List<String> lines, int i) {
        for (int j = i + 1; j < lines.size(); j++) {
            String t = lines.get(j).trim();
            if (!t.isEmpty() && !t.startsWith("#")) {
                return t.startsWith("- ");
            }
        }
        return false;
    }

    private static boolean previousIsComment(List<String> lines, int i) {
        for (int j = i - 1; j >= 0; j--) {
            String t = lines.get(j).trim();
            if (!t.isEmpty()) {
                return t.startsWith("#");
            }
        }
        return false;
    }

    private static List<String> reversed(Deque<String> path) {
        List<String> list = new ArrayList<>(path);
        java.util.Collections.reverse(list);
        return list;
    }
}
