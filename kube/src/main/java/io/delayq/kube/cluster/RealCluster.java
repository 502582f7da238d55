package io.delayq.kube.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A real Kubernetes control plane on loopback: etcd, kube-apiserver (RBAC on, an admin token, an audit log of
 * every request), kube-controller-manager (garbage collection, Deployments → ReplicaSets → Pods, service-account
 * tokens) and kube-scheduler, each a child process on free ports with its data in one temporary folder.
 * Nothing listens beyond 127.0.0.1. {@link #restartApiServer()} stops and starts the API server on the same port
 * and etcd, as an upgrade or a crash would.
 */
public final class RealCluster implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final KubeBinaries binaries;
    private final Path dir;
    private final String adminToken = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
    private final int apiPort;
    private final List<ClusterProcess> processes = new ArrayList<>();
    private ClusterProcess apiServer;
    /** From the stop to the answered readiness probe of each API server restart. */
    private final List<Instant[]> restarts = new ArrayList<>();
    private HttpClient probes;
    private Path kubeconfig;

    private RealCluster(KubeBinaries binaries, Path dir) {
        this.binaries = binaries;
        this.dir = dir;
        this.apiPort = freePort();
    }

    /** Starts the control plane; stops whatever had started if a part fails to. */
    public static RealCluster start(KubeBinaries binaries) {
        RealCluster cluster;
        try {
            cluster = new RealCluster(binaries, Files.createTempDirectory("delayq-kube-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            cluster.startAll();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll() {
        ServiceAccountKeys keys = ServiceAccountKeys.write(dir);
        ServingCertificate tls = ServingCertificate.write(dir.resolve("pki"));
        probes = trusting(tls.ca());
        write("tokens.csv", adminToken + ",admin,admin,system:masters\n");
        write("audit-policy.yaml", """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                omitStages: ["RequestReceived"]
                rules:
                  - level: Metadata
                """);

        int etcdPort = freePort();
        ClusterProcess etcd = process("etcd", List.of(binaries.etcd().toString(),
                "--data-dir", dir.resolve("etcd").toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdPort,
                "--advertise-client-urls", "http://127.0.0.1:" + etcdPort,
                "--listen-peer-urls", "http://127.0.0.1:" + freePort(),
                "--listen-metrics-urls", "http://127.0.0.1:" + freePort()));
        etcd.start();
        waitFor(etcd, () -> httpOk("http://127.0.0.1:" + etcdPort + "/health", null));

        apiServer = process("kube-apiserver", List.of(binaries.apiServer().toString(),
                "--etcd-servers", "http://127.0.0.1:" + etcdPort,
                "--secure-port", String.valueOf(apiPort),
                "--insecure-port", "0",
                "--bind-address", "127.0.0.1",
                "--advertise-address", "127.0.0.1",
                "--authorization-mode", "Node,RBAC",
                "--token-auth-file", dir.resolve("tokens.csv").toString(),
                "--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file", keys.publicKey().toString(),
                "--service-account-signing-key-file", keys.privateKey().toString(),
                "--tls-cert-file", tls.certificate().toString(),
                "--tls-private-key-file", tls.key().toString(),
                "--service-cluster-ip-range", "10.96.0.0/16",
                "--audit-policy-file", dir.resolve("audit-policy.yaml").toString(),
                "--audit-log-path", auditLog().toString(),
                "--audit-log-maxsize", "0"));
        startApiServer();
        kubeconfig = write("admin.kubeconfig", kubeconfigYaml());

        ClusterProcess controllerManager = process("kube-controller-manager", List.of(binaries.controllerManager().toString(),
                "--kubeconfig", kubeconfig.toString(),
                "--leader-elect=false",
                "--port", "0",
                "--secure-port", "0",
                "--service-account-private-key-file", keys.privateKey().toString(),
                "--root-ca-file", tls.ca().toString(),
                "--cluster-name", "delayq-test"));
        controllerManager.start();
        ClusterProcess scheduler = process("kube-scheduler", List.of(binaries.scheduler().toString(),
                "--kubeconfig", kubeconfig.toString(),
                "--leader-elect=false",
                "--port", "0",
                "--secure-port", "0"));
        scheduler.start();
        // The token controller has run once the default ServiceAccount has its token: pods can be admitted.
        try (KubernetesClient client = adminClient()) {
            waitFor(controllerManager, () -> {
                var sa = client.serviceAccounts().inNamespace("default").withName("default").get();
                return sa != null && sa.getSecrets() != null && !sa.getSecrets().isEmpty();
            });
        }
        scheduler.requireAlive();
    }

    private void startApiServer() {
        apiServer.start();
        waitFor(apiServer, () -> httpOk("https://127.0.0.1:" + apiPort + "/readyz", adminToken));
    }

    /** Stops the API server and starts it again on the same port, etcd and certificates. */
    public void restartApiServer() {
        Instant stopped = Instant.now();
        apiServer.stop();
        startApiServer();
        restarts.add(new Instant[]{stopped, Instant.now()});
    }

    /**
     * Whether the API server was restarting at that moment: a starting server answers 403 to every request until
     * its RBAC authorizer has read the roles, so the requests of that window say nothing about the roles.
     */
    public boolean restarting(Instant at) {
        return restarts.stream().anyMatch(r -> !at.isBefore(r[0]) && !at.isAfter(r[1]));
    }

    /** The API server's URL (loopback). */
    public String url() {
        return "https://127.0.0.1:" + apiPort;
    }

    /** An admin (system:masters) client configuration. */
    public Config adminConfig() {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url()).withOauthToken(adminToken)
                .withCaCertFile(caFile().toString())
                .withNamespace("default").withRequestTimeout(30_000).build();
    }

    public KubernetesClient adminClient() {
        return new KubernetesClientBuilder().withConfig(adminConfig()).build();
    }

    /**
     * A client configuration that acts as a ServiceAccount (impersonation by the admin): every request is then
     * authorized by RBAC as that account's own token would be.
     */
    public Config configAs(String namespace, String serviceAccount) {
        Config config = adminConfig();
        config.setImpersonateUsername("system:serviceaccount:" + namespace + ":" + serviceAccount);
        config.setImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated");
        return config;
    }

    /** An admin kubeconfig file (for Helm and kubectl). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    public String kubeconfigYaml() {
        return """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: delayq-test
                    cluster:
                      server: %s
                      certificate-authority: %s
                users:
                  - name: admin
                    user:
                      token: %s
                contexts:
                  - name: admin@delayq-test
                    context:
                      cluster: delayq-test
                      user: admin
                current-context: admin@delayq-test
                """.formatted(url(), caFile(), adminToken);
    }

    /** The CA that signed the API server's certificate (also every pod's service-account ca.crt). */
    public Path caFile() {
        return dir.resolve("pki").resolve("ca.crt");
    }

    public int apiPort() {
        return apiPort;
    }

    public KubeBinaries binaries() {
        return binaries;
    }

    public Path auditLog() {
        return dir.resolve("audit.log");
    }

    /** Every request the API server has recorded so far. */
    public List<AuditEvent> auditEvents() {
        List<AuditEvent> events = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(auditLog())) {
                if (!line.isBlank()) {
                    JsonNode node = JSON.readTree(line);
                    events.add(AuditEvent.of(node));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return events;
    }

    /** Runs kubectl (the one beside the server binaries, else PATH's) against this cluster as admin. */
    public ProcessResult kubectl(String... args) {
        if (binaries.kubectl() == null) {
            throw new IllegalStateException("no kubectl: " + KubeBinaries.INSTALL_HINT);
        }
        List<String> command = new ArrayList<>(List.of(binaries.kubectl().toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        return ProcessResult.run(command, Map.of());
    }

    /** Stops every process and deletes the cluster's folder (keep it with -Ddelayq.kube.keep=true to read the logs). */
    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop();
        }
        processes.clear();
        if (!Boolean.getBoolean("delayq.kube.keep")) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary folder is not worth failing a test run for
            }
        }
    }

    public Path dir() {
        return dir;
    }

    private ClusterProcess process(String name, List<String> command) {
        ClusterProcess p = new ClusterProcess(name, command, dir);
        processes.add(p);
        return p;
    }

    private Path write(String name, String content) {
        try {
            return Files.writeString(dir.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void waitFor(ClusterProcess process, BooleanSupplier ready) {
        process.awaitReady(ready, START_TIMEOUT);
    }

    private boolean httpOk(String url, String token) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
            if (token != null) {
                request.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> response = probes.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** An HTTP client that trusts this cluster's CA: the readiness probes verify the API server like any client. */
    private static HttpClient trusting(Path ca) {
        try (var in = Files.newInputStream(ca)) {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, trust.getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(2)).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
