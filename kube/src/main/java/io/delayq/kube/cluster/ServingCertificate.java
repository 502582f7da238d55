package io.delayq.kube.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A CA and the API server's certificate, made with openssl: valid for loopback, for the node's pod-network gateway
 * ({@link Node#GATEWAY}, where pods reach the API server) and for the in-cluster names, so that clients verify it
 * everywhere instead of skipping verification.
 */
record ServingCertificate(Path ca, Path certificate, Path key) {
    static final String SUBJECT_ALT_NAMES = "subjectAltName=IP:127.0.0.1,IP:" + Node.GATEWAY + ",IP:10.96.0.1,DNS:localhost,"
            + "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local\n"
            + "extendedKeyUsage=serverAuth\n";

    static ServingCertificate write(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("san.cnf"), SUBJECT_ALT_NAMES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "3",
                "-subj", "/CN=delayq-test-ca");
        openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "apiserver.key", "-out", "apiserver.csr",
                "-subj", "/CN=kube-apiserver");
        openssl(dir, "x509", "-req", "-in", "apiserver.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "apiserver.crt", "-days", "3", "-extfile", "san.cnf");
        return new ServingCertificate(dir.resolve("ca.crt"), dir.resolve("apiserver.crt"), dir.resolve("apiserver.key"));
    }

    private static void openssl(Path dir, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        ProcessResult result = ProcessResult.run(command, Map.of(), dir);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " failed:\n" + result.output());
        }
    }
}
