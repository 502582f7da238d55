package io.delayq.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import io.delayq.chart.RepoPaths;
import io.delayq.chart.Yaml;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert rules the chart ships (files/alerts.yaml, the file the PrometheusRule template
 * includes) pass `promtool check rules`, and the unit tests in tests/alerts-test.yaml pass
 * `promtool test rules` — with every alert shown both firing and quiet.
 */
class AlertRulesTest {
    private static final Path ALERTS = RepoPaths.chart().resolve("files/alerts.yaml");
    private static final Path UNIT_TESTS = RepoPaths.chart().resolve("tests/alerts-test.yaml");

    /** Called in each test that runs promtool, so that only those are skipped where it is absent. */
    private static Promtool promtool() {
        return new Promtool(PrometheusBinaries.requirePromtool());
    }

    @Test
    void rulesPassPromtoolCheck() {
        Promtool.Result r = promtool().checkRules(ALERTS);

        assertThat(r.ok()).as(r.output()).isTrue();
        assertThat(r.output()).contains("SUCCESS: 11 rules found");
    }

    @Test
    void unitTestsPass() {
        Promtool.Result r = promtool().testRules(UNIT_TESTS);

        assertThat(r.ok()).as(r.output()).isTrue();
        assertThat(r.output()).contains("SUCCESS");
    }

    @Test
    void unitTestsRunOnTheShippedFile() {
        JsonNode tests = Yaml.read(UNIT_TESTS);

        assertThat(tests.path("rule_files")).hasSize(1);
        assertThat(UNIT_TESTS.getParent().resolve(tests.path("rule_files").get(0).asText()).normalize()).isEqualTo(ALERTS.normalize());
    }

    @Test
    void everyAlertIsShownFiringAndQuiet() {
        Set<String> alerts = new HashSet<>();
        Yaml.read(ALERTS).path("groups").forEach(g -> g.path("rules").forEach(r -> alerts.add(r.path("alert").asText())));
        Set<String> firing = new HashSet<>();
        Set<String> quiet = new HashSet<>();
        for (JsonNode test : Yaml.read(UNIT_TESTS).path("tests")) {
            for (JsonNode check : test.path("alert_rule_test")) {
                (check.path("exp_alerts").isEmpty() ? quiet : firing).add(check.path("alertname").asText());
            }
        }

        assertThat(alerts).hasSize(11);
        assertThat(firing).as("alerts with a firing case").containsAll(alerts);
        assertThat(quiet).as("alerts with a quiet case").containsAll(alerts);
    }

    @Test
    void aBrokenRuleFileFailsTheCheck(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // promtool really judges the file: a rule with invalid PromQL is refused.
        Path broken = dir.resolve("broken.yaml");
        java.nio.file.Files.writeString(broken, """
                groups:
                  - name: broken
                    rules:
                      - alert: Broken
                        expr: sum by (queue (delayq_queue_due_tasks)
                """);

        assertThat(promtool().checkRules(broken).ok()).isFalse();
    }
}
