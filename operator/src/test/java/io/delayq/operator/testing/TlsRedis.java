package io.delayq.operator.testing;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.localredis.TlsStart;
import io.delayq.testing.TestCertificates;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A real redis-server that also listens on TLS, with a certificate for 127.0.0.1 signed by a
 * throw-away private CA (and a second CA that signed nothing, to show what an untrusted chain does).
 * Tests that need it are skipped where openssl is missing or the redis-server lacks TLS (the
 * embedded 6.2 binary does).
 */
public final class TlsRedis implements AutoCloseable {
    private static Path certs;
    private final LocalRedisServer server;
    private final int tlsPort;

    private TlsRedis(LocalRedisServer server, int tlsPort) {
        this.server = server;
        this.tlsPort = tlsPort;
    }

    /** Starts one, or skips the calling test when this machine cannot. */
    public static TlsRedis startOrSkip() throws IOException {
        assumeThat(TestCertificates.opensslAvailable()).as("openssl on PATH").isTrue();
        synchronized (TlsRedis.class) {
            if (certs == null) {
                Path dir = Files.createTempDirectory("delayq-operator-tls-");
                TestCertificates.ca(dir, "ca");
                TestCertificates.ca(dir, "other-ca");
                TestCertificates.server(dir, "ca", "redis", "IP:127.0.0.1,DNS:localhost");
                certs = dir;
            }
        }
        // TlsStart: a redis-server without TLS skips the test, a port taken meanwhile is retried, anything else fails it
        return TlsStart.start(() -> {
            int tlsPort = LocalRedisServer.freePort();
            LocalRedisServer server = LocalRedisServer.start("--tls-port", String.valueOf(tlsPort),
                    "--tls-cert-file", certs.resolve("redis.crt").toString(), "--tls-key-file", certs.resolve("redis.key").toString(),
                    "--tls-ca-cert-file", certs.resolve("ca.crt").toString(), "--tls-auth-clients", "no");
            return new TlsRedis(server, tlsPort);
        }).orElseGet(() -> Assumptions.abort("needs a redis-server built with TLS (this one refused the TLS options)"));
    }

    /** rediss:// on the TLS port. */
    public String tlsUrl() {
        return "rediss://127.0.0.1:" + tlsPort;
    }

    /** The CA that signed the server's certificate, as PEM. */
    public String caPem() throws IOException {
        return Files.readString(certs.resolve("ca.crt"), StandardCharsets.UTF_8);
    }

    /** A CA that did not sign the server's certificate. */
    public String otherCaPem() throws IOException {
        return Files.readString(certs.resolve("other-ca.crt"), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        server.close();
    }
}
