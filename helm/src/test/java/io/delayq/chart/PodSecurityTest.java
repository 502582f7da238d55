package io.delayq.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator pod meets the Pod Security Standards' "restricted" profile (checked rule by rule,
 * as the admission controller does) plus a read-only root filesystem, probes and resources,
 * over every values set.
 */
class PodSecurityTest {
    /** Volume types the restricted profile allows. */
    private static final Set<String> ALLOWED_VOLUMES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");

    @TempDir
    Path scratch;

    static List<Map<String, Object>> valueSets() {
        return ValueSets.all();
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void operatorPodIsRestricted(Map<String, Object> values) {
        JsonNode pod = HelmChart.of(scratch).render(values).one("Deployment").at("/spec/template/spec");

        assertThat(restrictedViolations(pod)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void operatorContainerHasReadOnlyRootProbesAndResources(Map<String, Object> values) {
        Manifests m = HelmChart.of(scratch).render(values);
        JsonNode c = m.operatorContainer();

        assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
        // The JVM still gets a writable /tmp.
        assertThat(c.path("volumeMounts")).anySatisfy(v -> assertThat(v.path("mountPath").asText()).isEqualTo("/tmp"));
        assertThat(m.one("Deployment").at("/spec/template/spec/volumes")).anySatisfy(v -> assertThat(v.has("emptyDir")).isTrue());
        assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/readyz");
        assertThat(c.at("/startupProbe/httpGet/path").asText()).isEqualTo("/healthz");
        assertThat(c.at("/resources/requests/cpu").asText()).isNotBlank();
        assertThat(c.at("/resources/requests/memory").asText()).isNotBlank();
        assertThat(c.at("/resources/limits/memory").asText()).isNotBlank();
    }

    @Test
    void theCheckRejectsAPodThatBreaksTheProfile() {
        // The check itself must be able to fail: a root, privileged pod with a hostPath volume.
        JsonNode bad = Yaml.MAPPER.valueToTree(Map.of(
                "hostNetwork", true,
                "securityContext", Map.of("runAsUser", 0),
                "containers", List.of(Map.of("name", "c", "ports", List.of(Map.of("containerPort", 80, "hostPort", 80)),
                        "securityContext", Map.of("privileged", true, "capabilities", Map.of("add", List.of("SYS_ADMIN"))))),
                "volumes", List.of(Map.of("name", "h", "hostPath", Map.of("path", "/")))));

        assertThat(restrictedViolations(bad)).hasSizeGreaterThanOrEqualTo(8);
    }

    /** The restricted profile's rules (kubernetes.io/docs/concepts/security/pod-security-standards). */
    static List<String> restrictedViolations(JsonNode pod) {
        List<String> v = new ArrayList<>();
        for (String host : List.of("hostNetwork", "hostPID", "hostIPC")) {
            if (pod.path(host).asBoolean(false)) {
                v.add(host + " is set");
            }
        }
        JsonNode podSc = pod.path("securityContext");
        for (JsonNode vol : pod.path("volumes")) {
            vol.fieldNames().forEachRemaining(f -> {
                if (!f.equals("name") && !ALLOWED_VOLUMES.contains(f)) {
                    v.add("volume " + vol.path("name").asText() + " has type " + f);
                }
            });
        }
        if (podSc.path("runAsUser").isNumber() && podSc.path("runAsUser").asLong() == 0) {
            v.add("pod runAsUser is 0");
        }
        List<JsonNode> containers = new ArrayList<>();
        pod.path("initContainers").forEach(containers::add);
        pod.path("containers").forEach(containers::add);
        for (JsonNode c : containers) {
            String name = c.path("name").asText();
            JsonNode sc = c.path("securityContext");
            if (sc.path("privileged").asBoolean(false)) {
                v.add(name + ": privileged");
            }
            if (sc.path("allowPrivilegeEscalation").asBoolean(true)) {
                v.add(name + ": allowPrivilegeEscalation is not false");
            }
            boolean dropsAll = false;
            for (JsonNode d : sc.at("/capabilities/drop")) {
                dropsAll |= d.asText().equals("ALL");
            }
            if (!dropsAll) {
                v.add(name + ": capabilities do not drop ALL");
            }
            for (JsonNode a : sc.at("/capabilities/add")) {
                if (!a.asText().equals("NET_BIND_SERVICE")) {
                    v.add(name + ": adds capability " + a.asText());
                }
            }
            boolean nonRoot = sc.has("runAsNonRoot") ? sc.path("runAsNonRoot").asBoolean() : podSc.path("runAsNonRoot").asBoolean(false);
            if (!nonRoot) {
                v.add(name + ": runAsNonRoot is not true");
            }
            if (sc.path("runAsUser").isNumber() && sc.path("runAsUser").asLong() == 0) {
                v.add(name + ": runAsUser is 0");
            }
            String seccomp = sc.has("seccompProfile") ? sc.at("/seccompProfile/type").asText() : podSc.at("/seccompProfile/type").asText();
            if (!seccomp.equals("RuntimeDefault") && !seccomp.equals("Localhost")) {
                v.add(name + ": seccompProfile is '" + seccomp + "'");
            }
            for (JsonNode p : c.path("ports")) {
                if (p.path("hostPort").asInt(0) != 0) {
                    v.add(name + ": hostPort " + p.path("hostPort").asInt());
                }
            }
        }
        return v;
    }
}
