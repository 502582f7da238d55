package io.delayq.images.podman;

import io.delayq.operator.resource.DelayQueue;
import io.delayq.operator.workers.WorkerDeployment;
import io.delayq.shard.ShardRange;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The translation of a pod spec into podman flags, without podman. */
class PodmanPodTest {

    private static PodSpec workerPod() {
        DelayQueue dq = Serialization.unmarshal("""
                apiVersion: delayq.io/v1alpha1
                kind: DelayQueue
                metadata: {name: orders, namespace: shop, uid: u-1}
                spec:
                  shards: 4
                  shutdownGrace: 20s
                  redis: {url: "redis://10.0.2.2:6379"}
                  worker:
                    env:
                      - {name: SIGNING_KEY, valueFrom: {secretKeyRef: {name: keys, key: signing}}}
                """, DelayQueue.class);
        return WorkerDeployment.desired(dq, ShardRange.all(4), 1, new TreeMap<>(), "example/worker:1").getSpec().getTemplate().getSpec();
    }

    @Test
    void aWorkerPodBecomesTheFlagsOfItsSecuritySettingsVolumesLimitsAndEnv() {
        PodmanPod pod = PodmanPod.of(workerPod(), "worker", (name, source) -> "secret-of-" + source.getSecretKeyRef().getName(), Map.of("EXTRA", "1"));

        assertThat(pod.image()).isEqualTo("example/worker:1");
        assertThat(pod.terminationGrace()).as("shutdownGrace + the operator's exit margin").isEqualTo(Duration.ofSeconds(30));
        assertThat(pod.ports()).containsEntry("http", 8080);
        assertThat(String.join(" ", pod.runFlags())).contains(
                "--network slirp4netns:allow_host_loopback=true",
                "--user 10001:10001", "--group-add 10001",
                "--read-only --read-only-tmpfs=false",
                "--security-opt no-new-privileges", "--cap-drop ALL",
                "--tmpfs /tmp:rw,exec,nosuid,nodev,notmpcopyup,size=268435456,mode=0777",
                "--memory 536870912", "--cpu-shares 102",
                "--env DELAYQ_QUEUE=orders", "--env DELAYQ_HTTP_PORT=8080", "--env SIGNING_KEY=secret-of-keys", "--env EXTRA=1",
                "--publish 127.0.0.1::8080")
                .as("RuntimeDefault is podman's own profile").doesNotContain("seccomp=unconfined")
                .doesNotContain("--privileged");
    }

    @Test
    void aPodWithoutASeccompProfileRunsUnconfinedAsKubernetesWould() {
        PodSpec spec = new PodSpecBuilder().addNewContainer().withName("c").withImage("i").endContainer().build();
        assertThat(PodmanPod.of(spec, "c", (n, s) -> null, Map.of()).runFlags()).containsSubsequence("--security-opt", "seccomp=unconfined");
        assertThat(PodmanPod.of(spec, "c", (n, s) -> null, Map.of()).terminationGrace()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void whatCannotBeReproducedIsRefusedWithTheFieldsName() {
        PodSpec secretVolume = new PodSpecBuilder(workerPod()).addNewVolume().withName("ca").withNewSecret().withSecretName("ca").endSecret().endVolume()
                .editFirstContainer().addNewVolumeMount().withName("ca").withMountPath("/etc/ca").endVolumeMount().endContainer().build();
        assertThatThrownBy(() -> PodmanPod.of(secretVolume, "worker", (n, s) -> "x", Map.of()))
                .hasMessageContaining("volumes[ca]: only emptyDir volumes");

        assertThatThrownBy(() -> PodmanPod.of(workerPod(), "worker", (n, s) -> null, Map.of()))
                .hasMessageContaining("env SIGNING_KEY");

        PodSpec root = new PodSpecBuilder(workerPod()).editSecurityContext().withRunAsUser(0L).endSecurityContext().build();
        assertThatThrownBy(() -> PodmanPod.of(root, "worker", (n, s) -> "x", Map.of()))
                .hasMessageContaining("runAsNonRoot needs a non-zero runAsUser");

        PodSpec localhostProfile = new PodSpecBuilder(workerPod()).editFirstContainer().editSecurityContext()
                .withNewSeccompProfile().withType("Localhost").withLocalhostProfile("p.json").endSeccompProfile().endSecurityContext().endContainer().build();
        assertThatThrownBy(() -> PodmanPod.of(localhostProfile, "worker", (n, s) -> "x", Map.of()))
                .hasMessageContaining("seccompProfile.type Localhost");

        assertThatThrownBy(() -> PodmanPod.of(workerPod(), "sidecar", (n, s) -> "x", Map.of()))
                .hasMessageContaining("no container named sidecar");
    }
}
