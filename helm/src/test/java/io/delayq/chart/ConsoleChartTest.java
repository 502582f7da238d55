package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The console's objects (off by default): Deployment, Service, optional Ingress, their settings and checks. */
class ConsoleChartTest {
    private static final String NAME = "delayq-delayq-operator-console";

    @TempDir
    Path scratch;

    private static Map<String, Object> console(Map<String, Object> extra) {
        Map<String, Object> c = new HashMap<>(Map.of("enabled", true, "redis", Map.of("url", "redis://redis.shop:6379",
                "existingSecret", "delayq-console-redis"), "actionToken", Map.of("existingSecret", "delayq-console-token"),
                "queues", List.of("orders", "payouts")));
        c.putAll(extra);
        return Map.of("console", c);
    }

    @Test
    void offByDefault() {
        Manifests m = HelmChart.of(scratch).render();
        assertThat(m.names()).doesNotContain("console");
        assertThat(m.ofKind("Ingress")).isEmpty();
    }

    @Test
    void enabledItRunsTheWorkerImagesConsoleWithItsOwnRedisUserAndToken() {
        Manifests m = HelmChart.of(scratch).render(console(Map.of()));

        JsonNode d = m.get("Deployment", NAME);
        assertThat(d.at("/spec/replicas").asInt()).as("sessions live in memory: one replica").isEqualTo(1);
        assertThat(d.at("/spec/selector/matchLabels/app.kubernetes.io~1component").asText()).isEqualTo("console");
        JsonNode pod = d.at("/spec/template/spec");
        assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
        assertThat(PodSecurityTest.restrictedViolations(pod)).isEmpty();
        JsonNode c = pod.at("/containers/0");
        assertThat(c.path("image").asText()).startsWith("ghcr.io/delayq/delayq-worker:");
        assertThat(c.path("args")).extracting(JsonNode::asText).containsExactly("console");
        assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        assertThat(env(c, "DELAYQ_REDIS_URL").path("value").asText()).isEqualTo("redis://redis.shop:6379");
        assertThat(env(c, "DELAYQ_CONSOLE_HOST").path("value").asText()).isEqualTo("0.0.0.0");
        assertThat(env(c, "DELAYQ_CONSOLE_QUEUES").path("value").asText()).isEqualTo("orders,payouts");
        assertThat(env(c, "DELAYQ_REDIS_USERNAME").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("delayq-console-redis");
        assertThat(env(c, "DELAYQ_REDIS_PASSWORD").at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("password");
        assertThat(env(c, "DELAYQ_CONSOLE_TOKEN").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("delayq-console-token");
        assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/api/readyz");
        assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/api/healthz");

        JsonNode svc = m.get("Service", NAME);
        assertThat(svc.at("/spec/selector/app.kubernetes.io~1component").asText()).isEqualTo("console");
        assertThat(svc.at("/spec/ports/0/targetPort").asText()).isEqualTo("http");
        assertThat(m.ofKind("Ingress")).isEmpty();
        assertThat(m.operatorContainer().path("name").asText()).as("the operator is still there, alone in its Deployment").isNotEmpty();
    }

    @Test
    void withoutTokenOrSecretItIsAReadOnlyConsoleWithoutCredentials() {
        JsonNode c = HelmChart.of(scratch).render(Map.of("console", Map.of("enabled", true, "redis", Map.of("url", "redis://r:6379"))))
                .get("Deployment", NAME).at("/spec/template/spec/containers/0");
        List<String> names = c.path("env").findValuesAsText("name");
        assertThat(names).doesNotContain("DELAYQ_CONSOLE_TOKEN", "DELAYQ_REDIS_PASSWORD", "DELAYQ_REDIS_USERNAME");
    }

    @Test
    void theIngressIsOptionalAndPointsAtTheService() {
        JsonNode ing = HelmChart.of(scratch).render(console(Map.of("ingress", Map.of("enabled", true, "host", "delayq.example.com",
                "className", "nginx", "tlsSecretName", "delayq-tls", "annotations", Map.of("nginx.ingress.kubernetes.io/auth-type", "basic")))))
                .get("Ingress", NAME);
        assertThat(ing.at("/spec/ingressClassName").asText()).isEqualTo("nginx");
        assertThat(ing.at("/spec/rules/0/host").asText()).isEqualTo("delayq.example.com");
        assertThat(ing.at("/spec/rules/0/http/paths/0/backend/service/name").asText()).isEqualTo(NAME);
        assertThat(ing.at("/spec/tls/0/secretName").asText()).isEqualTo("delayq-tls");
        assertThat(ing.at("/metadata/annotations/nginx.ingress.kubernetes.io~1auth-type").asText()).isEqualTo("basic");
    }

    @Test
    void theIngressPathAndHostReachTheConsole() {
        JsonNode c = HelmChart.of(scratch).render(console(Map.of("ingress", Map.of("enabled", true, "host", "delayq.example.com", "path", "/ops/delayq"))))
                .get("Deployment", NAME).at("/spec/template/spec/containers/0");
        assertThat(c.at("/readinessProbe/httpGet/path").asText()).as("the probes under the prefix too").isEqualTo("/ops/delayq/api/readyz");
        assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/ops/delayq/api/healthz");
        assertThat(env(c, "DELAYQ_CONSOLE_PATH").path("value").asText()).isEqualTo("/ops/delayq");
        assertThat(env(c, "DELAYQ_CONSOLE_ALLOWED_HOSTS").path("value").asText().split(",")).containsExactly("delayq.example.com", NAME,
                NAME + ".delayq-system", NAME + ".delayq-system.svc", NAME + ".delayq-system.svc.cluster.local", "localhost", "127.0.0.1");
        JsonNode own = HelmChart.of(scratch).render(console(Map.of("allowedHosts", List.of("ops.example.com:8443"))))
                .get("Deployment", NAME).at("/spec/template/spec/containers/0");
        assertThat(env(own, "DELAYQ_CONSOLE_ALLOWED_HOSTS").path("value").asText()).isEqualTo("ops.example.com:8443");
        assertThat(env(own, "DELAYQ_CONSOLE_PATH").path("value").asText()).isEqualTo("/");
    }

    @Test
    void lintsStrictlyWithTheConsoleAndItsIngress() {
        LintResult r = HelmChart.of(scratch).lint(console(Map.of("ingress", Map.of("enabled", true, "host", "delayq.example.com"))));
        assertThat(r.isFailed()).as("%s", r.getMessages()).isFalse();
        assertThat(r.getMessages()).allMatch(msg -> msg.contains("[INFO]"));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(Map.of("console", Map.of("enabled", true)), List.of("console.redis.url is required")),
                Arguments.of(Map.of("console", Map.of("enabled", true, "redis", Map.of("url", "redis://user:secret@r:6379"))),
                        List.of("console.redis.url", "Does not match pattern")),
                Arguments.of(console(Map.of("queues", List.of("Orders"))), List.of("console.queues.0", "Does not match pattern")),
                Arguments.of(console(Map.of("port", 80)), List.of("console.port", "Must be greater than or equal to 1024")),
                Arguments.of(console(Map.of("replicaCount", 2)), List.of("console", "replicaCount")),
                Arguments.of(console(Map.of("sampleEvery", "often")), List.of("console.sampleEvery", "Does not match pattern")),
                Arguments.of(console(Map.of("ingress", Map.of("enabled", true))), List.of("console.ingress.host is required")),
                Arguments.of(console(Map.of("ingress", Map.of("path", "delayq"))), List.of("console.ingress.path", "Does not match pattern")),
                Arguments.of(console(Map.of("ingress", Map.of("path", "/ops/../admin"))), List.of("console.ingress.path", "Does not match pattern")),
                Arguments.of(console(Map.of("ingress", Map.of("path", "//evil.example/"))), List.of("console.ingress.path", "Does not match pattern")),
                Arguments.of(console(Map.of("allowedHosts", List.of("not a host"))), List.of("console.allowedHosts.0", "Does not match pattern")));
    }

    @ParameterizedTest
    @MethodSource("badValues")
    void badValuesAreRejectedNamingTheField(Map<String, Object> values, List<String> mentions) {
        assertThatThrownBy(() -> HelmChart.of(scratch).render(values))
                .satisfies(e -> mentions.forEach(s -> assertThat(e.getMessage()).contains(s)));
    }

    private static JsonNode env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asText())) {
                return e;
            }
        }
        throw new AssertionError("no env var " + name + " in " + container.path("env"));
    }
}
