package io.delayq.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A throw-away CA and certificates it signs, made with the openssl command line for one test run (TLS tests of the chaos and operator modules). */
public final class TestCertificates {
    private TestCertificates() {
    }

    public static boolean opensslAvailable() {
        try {
            return run(Path.of(System.getProperty("java.io.tmpdir")), List.of("openssl", "version"));
        } catch (IOException e) {
            return false;
        }
    }

    /** A self-signed CA: {@code <name>.crt} and {@code <name>.key} in {@code dir}. */
    public static Path ca(Path dir, String name) throws IOException {
        require(dir, List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-keyout", name + ".key", "-out", name + ".crt", "-subj", "/CN=" + name,
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"));
        return dir.resolve(name + ".crt");
    }

    /** A server certificate {@code <name>.crt} / {@code <name>.key} for {@code subjectAltName}, signed by {@code ca}. */
    public static Path server(Path dir, String ca, String name, String subjectAltName) throws IOException {
        require(dir, List.of("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr",
                "-subj", "/CN=" + name));
        Files.writeString(dir.resolve(name + ".ext"), "subjectAltName=" + subjectAltName + "\nbasicConstraints=CA:FALSE\n"
                + "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
        require(dir, List.of("openssl", "x509", "-req", "-in", name + ".csr", "-CA", ca + ".crt", "-CAkey", ca + ".key",
                "-CAcreateserial", "-days", "2", "-out", name + ".crt", "-extfile", name + ".ext"));
        return dir.resolve(name + ".crt");
    }

    private static void require(Path dir, List<String> command) throws IOException {
        if (!run(dir, command)) {
            throw new IOException("failed: " + String.join(" ", command) + "\n" + Files.readString(dir.resolve("openssl.log")));
        }
    }

    private static boolean run(Path dir, List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile()).start();
        try {
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
