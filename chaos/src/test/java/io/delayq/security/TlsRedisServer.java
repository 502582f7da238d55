package io.delayq.security;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.localredis.TlsStart;
import io.delayq.testing.TestCertificates;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server that listens on TLS only ({@code --port 0 --tls-port p}), with a certificate from
 * {@link TestCertificates}. Needs a redis-server built with TLS (Debian's 7.x is); {@link #supported()}
 * says whether the one on PATH is.
 */
final class TlsRedisServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path log;

    private TlsRedisServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static String binary() {
        String explicit = System.getenv("DELAYQ_REDIS_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        String path = System.getenv("PATH");
        for (String d : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "redis-server"))) {
                return Path.of(d, "redis-server").toString();
            }
        }
        return null; // the embedded Redis 6.2 binary is built without TLS
    }

    /** Whether the redis-server on PATH accepts the TLS options ({@link TlsStart}: one built without TLS refuses them; any other start failure is thrown). */
    static boolean supported(Path certs, String cert) throws Exception {
        if (binary() == null) {
            return false;
        }
        Optional<TlsRedisServer> probe = TlsStart.start(() -> start(certs, cert));
        if (probe.isPresent()) {
            probe.get().close();
        }
        return probe.isPresent();
    }

    static TlsRedisServer start(Path certs, String cert) throws IOException, InterruptedException {
        int port = LocalRedisServer.freePort();
        Path dir = Files.createTempDirectory("delayq-tls-redis-");
        Path log = dir.resolve("redis.log");
        List<String> cmd = new ArrayList<>(List.of(binary(), "--port", "0", "--tls-port", String.valueOf(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                "--tls-cert-file", certs.resolve(cert + ".crt").toString(), "--tls-key-file", certs.resolve(cert + ".key").toString(),
                "--tls-ca-cert-file", certs.resolve("ca.crt").toString(), "--tls-auth-clients", "no"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            String out = Files.exists(log) ? Files.readString(log) : "";
            if (out.contains("Ready to accept connections")) {
                return new TlsRedisServer(p, port, log);
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("redis-server with TLS exited at start: " + out);
            }
            Thread.sleep(20);
        }
        p.destroyForcibly();
        throw new IllegalStateException("redis-server with TLS did not become ready: " + Files.readString(log));
    }

    int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
