package io.delayq.images.podman;

import io.delayq.operator.workers.PodSecurity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the "restricted" pod settings must mean inside a running container, read from the kernel's
 * view of its main process and from writes tried in it: the settings reached the process, not just
 * the spec.
 */
public final class RestrictedPodAssertions {
    private RestrictedPodAssertions() {
    }

    public static void assertRestricted(RunningPod pod, String writableVolume) {
        String status = pod.mainProcessStatus();
        long id = PodSecurity.USER_ID;
        assertThat(status).as("/proc/1/status").containsPattern("(?m)^Uid:\\s+" + id + "\\s+" + id + "\\s+" + id + "\\s+" + id + "$")
                .containsPattern("(?m)^Gid:\\s+" + id + "\\s+" + id + "\\s+" + id + "\\s+" + id + "$")
                .containsPattern("(?m)^Groups:.*\\b" + id + "\\b")
                .containsPattern("(?m)^CapInh:\\s+0+$")
                .containsPattern("(?m)^CapPrm:\\s+0+$")
                .containsPattern("(?m)^CapEff:\\s+0+$")
                .containsPattern("(?m)^CapBnd:\\s+0+$")
                .containsPattern("(?m)^NoNewPrivs:\\s+1$")
                .as("a seccomp filter is on (mode 2)").containsPattern("(?m)^Seccomp:\\s+2$");

        Podman.Result rootWrite = pod.exec("sh", "-c", "touch /app/written-at-run-time");
        assertThat(rootWrite.ok()).as("writing to the image's /app").isFalse();
        assertThat(rootWrite.output()).contains("Read-only file system");
        Podman.Result tmpWrite = pod.exec("sh", "-c", "touch " + writableVolume + "/probe && rm " + writableVolume + "/probe");
        assertThat(tmpWrite.ok()).as("writing to the emptyDir %s: %s", writableVolume, tmpWrite.output()).isTrue();
    }
}
