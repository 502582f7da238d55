package io.delayq.kube.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A node that runs pods, joined to a {@link RealCluster}: containerd (its own config, socket and folders, a pause
 * image built from the Kubernetes sources, {@code restrict_oom_score_adj} because this sandbox refuses the negative
 * score the kubelet asks for), runc, a bridge network {@value #SUBNET} on a bridge of its own ({@value #BRIDGE},
 * gateway {@value #GATEWAY}, no masquerading: pods reach this machine only), and the kubelet. Needs root.
 * {@link #close()} deletes every pod first so that the kubelet stops their sandboxes and networks, then stops the
 * kubelet and containerd and removes the bridge.
 */
public final class Node implements AutoCloseable {
    public static final String NAME = "node1";
    public static final String BRIDGE = "delayq0";
    public static final String SUBNET = "10.244.0.0/24";
    public static final String GATEWAY = "10.244.0.1";
    static final Path CONTAINERD = Path.of("/usr/bin/containerd");
    static final Path CTR = Path.of("/usr/bin/ctr");
    static final Path RUNC = Path.of("/usr/sbin/runc");
    static final Path CNI_BIN = Path.of("/usr/lib/cni");
    public static final String PAUSE_ENV = "DELAYQ_KUBE_PAUSE_IMAGE";
    static final Path DEFAULT_PAUSE = Path.of("/var/cache/delayq-kube/1.20.2/pause.tar");

    private final RealCluster cluster;
    private final Path dir;
    private final Path socket;
    private ClusterProcess containerd;
    private ClusterProcess kubelet;
    /** The network namespaces that existed before this node: every other one is a pod's, removed at the end. */
    private final java.util.Set<String> netnsBefore = netns();

    private Node(RealCluster cluster) {
        this.cluster = cluster;
        this.dir = cluster.dir().resolve("node");
        this.socket = dir.resolve("containerd.sock");
    }

    /** What this machine lacks for a node, or empty when it has everything. */
    public static Optional<String> missing(KubeBinaries binaries, Map<String, String> env) {
        List<String> missing = new ArrayList<>();
        if (!"root".equals(System.getProperty("user.name"))) {
            missing.add("root (the kubelet and containerd run as root)");
        }
        for (Path p : List.of(CONTAINERD, CTR, RUNC, Path.of("/usr/sbin/ip"), CNI_BIN.resolve("bridge"), CNI_BIN.resolve("host-local"), CNI_BIN.resolve("loopback"))) {
            if (!Files.isExecutable(p)) {
                missing.add(p.toString());
            }
        }
        if (!binaries.hasKubelet()) {
            missing.add(binaries.kubelet().toString());
        }
        if (!Files.isRegularFile(pauseImage(env))) {
            missing.add(pauseImage(env).toString());
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("no node here: " + String.join(", ", missing) + " missing; " + KubeBinaries.INSTALL_HINT);
    }

    private static Path pauseImage(Map<String, String> env) {
        return Optional.ofNullable(env.get(PAUSE_ENV)).filter(s -> !s.isBlank()).map(Path::of).orElse(DEFAULT_PAUSE);
    }

    /** Starts containerd and the kubelet, imports the pause image and {@code images}, and waits until the node is Ready. */
    public static Node start(RealCluster cluster, List<Path> images) {
        Node node = new Node(cluster);
        try {
            node.startAll(images);
            return node;
        } catch (RuntimeException e) {
            node.close();
            throw e;
        }
    }

    private void startAll(List<Path> images) {
        try {
            Files.createDirectories(dir.resolve("cni"));
            Files.writeString(dir.resolve("containerd.toml"), containerdConfig());
            Files.writeString(dir.resolve("cni").resolve("10-delayq.conflist"), cniConfig());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bridge();
        containerd = new ClusterProcess("containerd", List.of(CONTAINERD.toString(), "--config", dir.resolve("containerd.toml").toString()), dir);
        containerd.start();
        containerd.awaitReady(() -> ctr("version").exitCode() == 0, Duration.ofSeconds(60));
        importImage(pauseImage(System.getenv()));
        images.forEach(this::importImage);

        kubelet = new ClusterProcess("kubelet", List.of(cluster.binaries().kubelet().toString(),
                "--kubeconfig", cluster.kubeconfig().toString(),
                "--container-runtime=remote",
                "--container-runtime-endpoint=unix://" + socket,
                "--cgroup-driver=cgroupfs",
                "--fail-swap-on=false",
                "--root-dir", dir.resolve("kubelet").toString(),
                "--cert-dir", dir.resolve("kubelet-pki").toString(),
                "--hostname-override=" + NAME,
                "--node-ip=" + GATEWAY,
                "--cgroups-per-qos=false",
                "--enforce-node-allocatable=",
                "--pod-infra-container-image=localhost/pause:3.2",
                "--address=127.0.0.1",
                "--port=" + RealCluster.freePort(),
                "--healthz-port=0",
                "--read-only-port=0",
                "--authentication-token-webhook=false",
                "--authorization-mode=AlwaysAllow",
                "--image-gc-high-threshold=100",
                "--eviction-hard=memory.available<100Mi",
                "--volume-plugin-dir", dir.resolve("volume-plugins").toString()), dir);
        kubelet.start();
        try (KubernetesClient client = cluster.adminClient()) {
            kubelet.awaitReady(() -> {
                var n = client.nodes().withName(NAME).get();
                return n != null && n.getStatus().getConditions().stream()
                        .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
            }, Duration.ofSeconds(120));
        }
    }

    private String containerdConfig() {
        return """
                version = 2
                root = "%1$s/containerd/root"
                state = "%1$s/containerd/state"
                disabled_plugins = ["io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs",
                  "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.devmapper"]

                [grpc]
                  address = "%2$s"

                [ttrpc]
                  address = "%2$s.ttrpc"

                [plugins."io.containerd.internal.v1.opt"]
                  path = "%1$s/containerd/opt"

                [plugins."io.containerd.grpc.v1.cri"]
                  sandbox_image = "localhost/pause:3.2"
                  restrict_oom_score_adj = true
                  stream_server_address = "127.0.0.1"
                  stream_server_port = "0"
                  [plugins."io.containerd.grpc.v1.cri".cni]
                    bin_dir = "%3$s"
                    conf_dir = "%1$s/cni"
                  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
                    runtime_type = "io.containerd.runc.v2"
                    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
                      BinaryName = "%4$s"
                """.formatted(dir, socket, CNI_BIN, RUNC);
    }

    private String cniConfig() {
        return """
                {
                  "cniVersion": "0.4.0",
                  "name": "delayq-test",
                  "plugins": [
                    {
                      "type": "bridge",
                      "bridge": "%s",
                      "isGateway": true,
                      "ipMasq": false,
                      "ipam": {
                        "type": "host-local",
                        "subnet": "%s",
                        "gateway": "%s",
                        "dataDir": "%s"
                      }
                    }
                  ]
                }
                """.formatted(BRIDGE, SUBNET, GATEWAY, dir.resolve("ipam"));
    }

    /** The bridge exists before the first pod, so that the test can listen on the gateway address at once. */
    private static void bridge() {
        if (run("ip", "link", "show", BRIDGE).exitCode() != 0) {
            run("ip", "link", "add", BRIDGE, "type", "bridge").requireSuccess();
        }
        if (!run("ip", "-4", "addr", "show", "dev", BRIDGE).output().contains(GATEWAY + "/")) {
            run("ip", "addr", "add", GATEWAY + "/24", "dev", BRIDGE).requireSuccess();
        }
        run("ip", "link", "set", BRIDGE, "up").requireSuccess();
    }

    private void importImage(Path archive) {
        ctr("images", "import", archive.toString()).requireSuccess();
    }

    private ProcessResult ctr(String... args) {
        List<String> command = new ArrayList<>(List.of(CTR.toString(), "--address", socket.toString(), "--namespace", "k8s.io"));
        command.addAll(List.of(args));
        return ProcessResult.run(command, Map.of());
    }

    private static ProcessResult run(String... command) {
        return ProcessResult.run(List.of(command), Map.of());
    }

    @Override
    public void close() {
        if (kubelet != null && kubelet.alive()) {
            // Pods deleted through the API: the kubelet stops them, and containerd tears down their networks.
            try (KubernetesClient client = cluster.adminClient()) {
                client.pods().inAnyNamespace().list().getItems().stream()
                        .filter(p -> NAME.equals(p.getSpec().getNodeName()))
                        .forEach(p -> client.pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName())
                                .withGracePeriod(0).delete());
                // gone from the API once the kubelet has stopped the containers and the sandbox with its network
                long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
                while (System.nanoTime() < deadline && client.pods().inAnyNamespace().list().getItems().stream()
                        .anyMatch(p -> NAME.equals(p.getSpec().getNodeName()))) {
                    Thread.sleep(500);
                }
            } catch (RuntimeException | InterruptedException e) {
                // the forced clean-up below still runs
            }
            kubelet.stop();
        }
        if (containerd != null && containerd.alive()) {
            // whatever is left: kill and delete the tasks, so that no shim outlives the test
            for (String task : ctr("tasks", "ls", "-q").output().lines().filter(l -> !l.isBlank()).toList()) {
                ctr("tasks", "kill", "-s", "SIGKILL", task);
            }
            for (String task : ctr("tasks", "ls", "-q").output().lines().filter(l -> !l.isBlank()).toList()) {
                ctr("tasks", "delete", "-f", task);
            }
            containerd.stop();
        }
        for (String ns : netns()) {
            if (!netnsBefore.contains(ns)) {
                run("ip", "netns", "delete", ns);
            }
        }
        run("ip", "link", "del", BRIDGE);
        // mounts the runtime left under the node's folder would keep it from being deleted
        for (String line : run("sh", "-c", "grep -o ' " + dir + "[^ ]*' /proc/self/mounts | sort -r").output().lines().toList()) {
            run("umount", "-l", line.trim());
        }
    }

    private static java.util.Set<String> netns() {
        try (var list = Files.list(Path.of("/var/run/netns"))) {
            return list.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        } catch (IOException e) {
            return java.util.Set.of();
        }
    }

    @Override
    public String toString() {
        return "node " + NAME;
    }
}
