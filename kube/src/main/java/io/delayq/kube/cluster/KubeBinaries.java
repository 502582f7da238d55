package io.delayq.kube.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the cluster's programs are: kube-apiserver, kube-controller-manager, kube-scheduler (and kubelet) as
 * {@code .ci/install-kubernetes.sh} builds and caches them ({@code DELAYQ_KUBE_BIN}, default
 * {@code /var/cache/delayq-kube/1.20.2/bin}), etcd from Debian's {@code etcd-server}, and a kubectl of the same
 * minor version where the script put one beside the server binaries.
 */
public record KubeBinaries(Path apiServer, Path controllerManager, Path scheduler, Path kubelet, Path etcd, Path kubectl) {
    public static final String BIN_ENV = "DELAYQ_KUBE_BIN";
    public static final Path DEFAULT_BIN = Path.of("/var/cache/delayq-kube/1.20.2/bin");
    public static final String INSTALL_HINT = "run .ci/install-kubernetes.sh (as root) to build and cache them";

    /** The binaries of this machine, or what is missing. */
    public static Found find(Map<String, String> env) {
        Path bin = Optional.ofNullable(env.get(BIN_ENV)).filter(s -> !s.isBlank()).map(Path::of).orElse(DEFAULT_BIN);
        List<String> missing = new ArrayList<>();
        Path apiServer = executable(bin.resolve("kube-apiserver"), missing);
        Path controllerManager = executable(bin.resolve("kube-controller-manager"), missing);
        Path scheduler = executable(bin.resolve("kube-scheduler"), missing);
        Path etcd = executable(onPath("etcd", env).orElse(Path.of("/usr/bin/etcd")), missing);
        Path kubelet = bin.resolve("kubelet");
        Path kubectl = Files.isExecutable(bin.resolve("kubectl")) ? bin.resolve("kubectl") : onPath("kubectl", env).orElse(null);
        if (!missing.isEmpty()) {
            return new Found(null, "no real Kubernetes here: " + String.join(", ", missing) + " missing; " + INSTALL_HINT);
        }
        return new Found(new KubeBinaries(apiServer, controllerManager, scheduler, kubelet, etcd, kubectl), null);
    }

    /** Whether the kubelet was built too (a node can run pods only with it). */
    public boolean hasKubelet() {
        return Files.isExecutable(kubelet);
    }

    private static Path executable(Path p, List<String> missing) {
        if (!Files.isExecutable(p)) {
            missing.add(p.toString());
        }
        return p;
    }

    private static Optional<Path> onPath(String name, Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Optional.of(Path.of(dir, name));
            }
        }
        return Optional.empty();
    }

    /** The binaries, or why there are none. */
    public record Found(KubeBinaries binaries, String missing) {
        public boolean present() {
            return binaries != null;
        }
    }
}
