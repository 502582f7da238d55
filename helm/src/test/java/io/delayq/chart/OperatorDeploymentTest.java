package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator Deployment: the env the operator reads, images, scheduling values, the metrics Service. */
class OperatorDeploymentTest {
    @TempDir
    Path scratch;

    @Test
    void operatorGetsItsConfigurationFromTheValues() {
        Manifests m = HelmChart.of(scratch).render(Map.of(
                "watchNamespaces", List.of("shop"),
                "leaderElection", Map.of("enabled", false),
                "metrics", Map.of("port", 9102)));

        assertThat(m.operatorEnv("DELAYQ_WATCH_NAMESPACES")).isEqualTo("shop");
        assertThat(m.operatorEnv("DELAYQ_LEADER_ELECTION")).isEqualTo("false");
        assertThat(m.operatorEnv("DELAYQ_METRICS_PORT")).isEqualTo("9102");
        JsonNode c = m.operatorContainer();
        assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(9102);
        assertThat(c.at("/livenessProbe/httpGet/port").asText()).isEqualTo(c.at("/ports/0/name").asText());
        JsonNode svc = m.one("Service");
        assertThat(svc.at("/spec/ports/0/port").asInt()).isEqualTo(9102);
        assertThat(svc.at("/spec/ports/0/targetPort").asText()).isEqualTo(c.at("/ports/0/name").asText());
        assertThat(svc.at("/spec/selector")).isEqualTo(m.one("Deployment").at("/spec/selector/matchLabels"));
    }

    @Test
    void leaderElectionTimingsReachTheOperatorOnlyWhenItElects() {
        Manifests defaults = HelmChart.of(scratch).render(Map.of());
        assertThat(defaults.operatorEnv("DELAYQ_LEADER_ELECTION")).isEqualTo("true");
        assertThat(defaults.operatorEnv("DELAYQ_LEADER_ELECTION_LEASE_DURATION")).isEqualTo("15s");
        assertThat(defaults.operatorEnv("DELAYQ_LEADER_ELECTION_RENEW_DEADLINE")).isEqualTo("10s");
        assertThat(defaults.operatorEnv("DELAYQ_LEADER_ELECTION_RETRY_PERIOD")).isEqualTo("2s");

        Manifests tuned = HelmChart.of(scratch).render(Map.of("leaderElection",
                Map.of("enabled", true, "leaseDuration", "30s", "renewDeadline", "20s", "retryPeriod", "4s")));
        assertThat(tuned.operatorEnv("DELAYQ_LEADER_ELECTION_LEASE_DURATION")).isEqualTo("30s");
        assertThat(tuned.operatorEnv("DELAYQ_LEADER_ELECTION_RENEW_DEADLINE")).isEqualTo("20s");
        assertThat(tuned.operatorEnv("DELAYQ_LEADER_ELECTION_RETRY_PERIOD")).isEqualTo("4s");

        Manifests single = HelmChart.of(scratch).render(Map.of("leaderElection", Map.of("enabled", false)));
        assertThat(single.operatorContainer().path("env").findValuesAsText("name"))
                .contains("DELAYQ_LEADER_ELECTION").doesNotContain("DELAYQ_LEADER_ELECTION_LEASE_DURATION");
    }

    @Test
    void imagesDefaultToTheChartsAppVersion() {
        Manifests m = HelmChart.of(scratch).render();
        String appVersion = Yaml.read(RepoPaths.chart().resolve("Chart.yaml")).path("appVersion").asText();

        assertThat(m.operatorContainer().path("image").asText()).isEqualTo("ghcr.io/delayq/delayq-operator:" + appVersion);
        assertThat(m.operatorEnv("DELAYQ_WORKER_IMAGE")).isEqualTo("ghcr.io/delayq/delayq-worker:" + appVersion);
    }

    @Test
    void imagesFollowTheirValues() {
        Manifests m = HelmChart.of(scratch).render(Map.of(
                "image", Map.of("repository", "registry.example/ops/delayq-operator", "tag", "1.2.3", "pullPolicy", "Always"),
                "workerImage", Map.of("repository", "registry.example/shop/orders-worker", "tag", "7"),
                "imagePullSecrets", List.of(Map.of("name", "pull"))));

        assertThat(m.operatorContainer().path("image").asText()).isEqualTo("registry.example/ops/delayq-operator:1.2.3");
        assertThat(m.operatorContainer().path("imagePullPolicy").asText()).isEqualTo("Always");
        assertThat(m.operatorEnv("DELAYQ_WORKER_IMAGE")).isEqualTo("registry.example/shop/orders-worker:7");
        assertThat(m.one("Deployment").at("/spec/template/spec/imagePullSecrets/0/name").asText()).isEqualTo("pull");
    }

    @Test
    void schedulingValuesReachThePod() {
        JsonNode pod = HelmChart.of(scratch).render(ValueSets.EVERYTHING_NAMESPACED).one("Deployment").at("/spec/template/spec");

        assertThat(pod.at("/nodeSelector/kubernetes.io~1os").asText()).isEqualTo("linux");
        assertThat(pod.at("/tolerations/0/key").asText()).isEqualTo("dedicated");
        JsonNode ha = HelmChart.of(scratch).render(ValueSets.HA).one("Deployment");
        assertThat(ha.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(ha.at("/spec/template/spec/affinity/podAntiAffinity").isObject()).isTrue();
    }

    @Test
    void extraEnvIsAppendedAndLogLevelReachesTheJvm() {
        Manifests m = HelmChart.of(scratch).render(Map.of("logLevel", "debug",
                "extraEnv", List.of(Map.of("name", "HTTPS_PROXY", "value", "http://proxy:3128"))));

        assertThat(m.operatorEnv("HTTPS_PROXY")).isEqualTo("http://proxy:3128");
        assertThat(m.operatorEnv("JAVA_TOOL_OPTIONS")).contains("-Dorg.slf4j.simpleLogger.defaultLogLevel=debug");
    }

    @Test
    void metricsServiceCanBeTurnedOff() {
        Manifests m = HelmChart.of(scratch).render(Map.of("metrics", Map.of("service", Map.of("enabled", false))));

        assertThat(m.kinds()).doesNotContain("Service");
    }
}
