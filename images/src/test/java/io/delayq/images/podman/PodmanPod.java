package io.delayq.images.podman;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * One container of a Kubernetes pod spec as {@code podman run} flags: what a kubelet would apply
 * to it, so that a test runs an image under exactly the settings the operator or the chart render.
 * A pure function of the spec; a setting it cannot reproduce is refused with the field's name
 * rather than dropped.
 *
 * <p>Each container gets a network namespace of its own (slirp4netns) in which the host's loopback
 * is {@link #HOST}, so Redis, webhook receivers and the mock API server of a test are reached
 * there, and every container port is published on a free loopback port of the host: the pod's own
 * ports (8080) and environment stay as rendered, and containers on a shared machine cannot collide.
 *
 * @param runFlags    flags for {@code podman run} (before the image)
 * @param image       the container's image
 * @param args        arguments after the image (the container's {@code args})
 * @param ports       container ports by name, to find their published host ports
 * @param terminationGrace the pod's {@code terminationGracePeriodSeconds}: how long {@code podman stop} waits before SIGKILL
 */
public record PodmanPod(List<String> runFlags, String image, List<String> args, Map<String, Integer> ports,
                        Duration terminationGrace) {
    /** The host's loopback as seen from a container (slirp4netns with {@code allow_host_loopback}). */
    public static final String HOST = "10.0.2.2";
    /** Kubernetes' default when a pod spec gives none. */
    static final long DEFAULT_GRACE_SECONDS = 30;

    /**
     * @param pod         the pod spec, as the operator or the chart render it
     * @param container   the name of the container to run
     * @param valueFrom   the value of an env var read from a Secret or the downward API ({@code null} = not available)
     * @param clusterEnv  what the cluster injects beyond the spec (e.g. the API server's address); appended last
     */
    public static PodmanPod of(PodSpec pod, String container, BiFunction<String, EnvVarSource, String> valueFrom,
                               Map<String, String> clusterEnv) {
        Container c = pod.getContainers().stream().filter(x -> container.equals(x.getName())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("spec.containers has no container named " + container));
        if (pod.getInitContainers() != null && !pod.getInitContainers().isEmpty()) {
            throw unsupported("spec.initContainers");
        }
        List<String> flags = new ArrayList<>();
        flags.addAll(List.of("--network", "slirp4netns:allow_host_loopback=true"));
        security(pod.getSecurityContext(), c.getSecurityContext(), flags);
        volumes(pod, c, flags);
        resources(c, flags);
        env(c, valueFrom, clusterEnv, flags);
        Map<String, Integer> ports = new java.util.LinkedHashMap<>();
        for (ContainerPort p : Objects.requireNonNullElse(c.getPorts(), List.<ContainerPort>of())) {
            if (p.getHostPort() != null || p.getHostIP() != null) {
                throw unsupported("containers[" + container + "].ports[" + p.getName() + "].hostPort");
            }
            flags.addAll(List.of("--publish", "127.0.0.1::" + p.getContainerPort()));
            ports.put(Objects.requireNonNullElse(p.getName(), String.valueOf(p.getContainerPort())), p.getContainerPort());
        }
        if (c.getCommand() != null && !c.getCommand().isEmpty()) {
            throw unsupported("containers[" + container + "].command");
        }
        if (c.getWorkingDir() != null) {
            flags.addAll(List.of("--workdir", c.getWorkingDir()));
        }
        long grace = Objects.requireNonNullElse(pod.getTerminationGracePeriodSeconds(), DEFAULT_GRACE_SECONDS);
        return new PodmanPod(List.copyOf(flags), c.getImage(), List.copyOf(Objects.requireNonNullElse(c.getArgs(), List.of())),
                Map.copyOf(ports), Duration.ofSeconds(grace));
    }

    private static void security(PodSecurityContext pod, SecurityContext container, List<String> flags) {
        PodSecurityContext p = Objects.requireNonNullElseGet(pod, PodSecurityContext::new);
        SecurityContext c = Objects.requireNonNullElseGet(container, SecurityContext::new);
        Long user = c.getRunAsUser() != null ? c.getRunAsUser() : p.getRunAsUser();
        Long group = c.getRunAsGroup() != null ? c.getRunAsGroup() : p.getRunAsGroup();
        boolean nonRoot = Boolean.TRUE.equals(c.getRunAsNonRoot() != null ? c.getRunAsNonRoot() : p.getRunAsNonRoot());
        if (nonRoot && (user == null || user == 0)) {
            // The kubelet would check the image's user; these pods name theirs, and 0 is refused as it would be.
            throw new IllegalArgumentException("securityContext.runAsNonRoot needs a non-zero runAsUser here, got " + user);
        }
        if (user != null) {
            flags.addAll(List.of("--user", group == null ? String.valueOf(user) : user + ":" + group));
        }
        if (p.getFsGroup() != null) {
            flags.addAll(List.of("--group-add", String.valueOf(p.getFsGroup())));
        }
        for (Long g : Objects.requireNonNullElse(p.getSupplementalGroups(), List.<Long>of())) {
            flags.addAll(List.of("--group-add", String.valueOf(g)));
        }
        if (Boolean.TRUE.equals(c.getPrivileged())) {
            flags.add("--privileged");
        }
        if (Boolean.TRUE.equals(c.getReadOnlyRootFilesystem())) {
            // podman would otherwise mount its own writable tmpfs on /tmp, /var/tmp and /run
            flags.addAll(List.of("--read-only", "--read-only-tmpfs=false"));
        }
        if (Boolean.FALSE.equals(c.getAllowPrivilegeEscalation())) {
            flags.addAll(List.of("--security-opt", "no-new-privileges"));
        }
        Capabilities caps = c.getCapabilities();
        if (caps != null) {
            Objects.requireNonNullElse(caps.getDrop(), List.<String>of()).forEach(x -> flags.addAll(List.of("--cap-drop", x)));
            Objects.requireNonNullElse(caps.getAdd(), List.<String>of()).forEach(x -> flags.addAll(List.of("--cap-add", x)));
        }
        SeccompProfile seccomp = c.getSeccompProfile() != null ? c.getSeccompProfile() : p.getSeccompProfile();
        String type = seccomp == null ? "Unconfined" : seccomp.getType();
        switch (type) {
            // podman's default profile is the runtime default (the test checks the filter is on)
            case "RuntimeDefault" -> { }
            // Kubernetes runs a pod without a profile unconfined, podman would not
            case "Unconfined" -> flags.addAll(List.of("--security-opt", "seccomp=unconfined"));
            default -> throw unsupported("securityContext.seccompProfile.type " + type);
        }
    }

    private static void volumes(PodSpec pod, Container c, List<String> flags) {
        for (VolumeMount m : Objects.requireNonNullElse(c.getVolumeMounts(), List.<VolumeMount>of())) {
            Volume v = Objects.requireNonNullElse(pod.getVolumes(), List.<Volume>of()).stream()
                    .filter(x -> m.getName().equals(x.getName())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("volumeMounts[" + m.getName() + "] names no volume of the pod"));
            if (v.getEmptyDir() == null) {
                throw unsupported("volumes[" + v.getName() + "]: only emptyDir volumes");
            }
            if (m.getSubPath() != null) {
                throw unsupported("volumeMounts[" + m.getName() + "].subPath");
            }
            // An emptyDir: empty (no copy of the image's folder), writable by every user, not noexec. The
            // kubelet also gives it the fsGroup; podman's tmpfs takes no gid, so it is world-writable instead.
            List<String> options = new ArrayList<>(List.of(Boolean.TRUE.equals(m.getReadOnly()) ? "ro" : "rw",
                    "exec", "nosuid", "nodev", "notmpcopyup"));
            Optional.ofNullable(v.getEmptyDir().getSizeLimit()).ifPresent(q -> options.add("size=" + bytes(q)));
            options.add("mode=0777");
            flags.addAll(List.of("--tmpfs", m.getMountPath() + ":" + String.join(",", options)));
        }
    }

    private static void resources(Container c, List<String> flags) {
        if (c.getResources() == null) {
            return;
        }
        Map<String, Quantity> limits = Objects.requireNonNullElse(c.getResources().getLimits(), Map.of());
        Map<String, Quantity> requests = Objects.requireNonNullElse(c.getResources().getRequests(), Map.of());
        if (limits.containsKey("memory")) {
            flags.addAll(List.of("--memory", String.valueOf(bytes(limits.get("memory")))));
        }
        if (limits.containsKey("cpu")) {
            flags.addAll(List.of("--cpus", cores(limits.get("cpu")).toPlainString()));
        }
        if (requests.containsKey("cpu")) {
            // the kubelet's mapping: 1 core = 1024 shares
            long shares = Math.max(2, cores(requests.get("cpu")).multiply(BigDecimal.valueOf(1024)).longValue());
            flags.addAll(List.of("--cpu-shares", String.valueOf(shares)));
        }
    }

    private static void env(Container c, BiFunction<String, EnvVarSource, String> valueFrom, Map<String, String> clusterEnv,
                            List<String> flags) {
        if (c.getEnvFrom() != null && !c.getEnvFrom().isEmpty()) {
            throw unsupported("containers[" + c.getName() + "].envFrom");
        }
        for (EnvVar e : Objects.requireNonNullElse(c.getEnv(), List.<EnvVar>of())) {
            String value = e.getValueFrom() == null ? Objects.requireNonNullElse(e.getValue(), "") : valueFrom.apply(e.getName(), e.getValueFrom());
            if (value == null) {
                throw new IllegalArgumentException("env " + e.getName() + ": its valueFrom has no value in this test");
            }
            flags.addAll(List.of("--env", e.getName() + "=" + value));
        }
        clusterEnv.forEach((k, v) -> flags.addAll(List.of("--env", k + "=" + v)));
    }

    private static long bytes(Quantity q) {
        return Quantity.getAmountInBytes(q).setScale(0, RoundingMode.UP).longValueExact();
    }

    private static BigDecimal cores(Quantity q) {
        return Quantity.getAmountInBytes(q).setScale(3, RoundingMode.UP).stripTrailingZeros();
    }

    private static IllegalArgumentException unsupported(String what) {
        return new IllegalArgumentException(what + " cannot be run by this test's podman translation");
    }
}
