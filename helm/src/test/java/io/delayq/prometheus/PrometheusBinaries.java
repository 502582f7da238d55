package io.delayq.prometheus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Finds Debian's prometheus and promtool: env PROMETHEUS_BIN / PROMTOOL_BIN, else the folder
 * .ci/install-prometheus.sh extracts into, else PATH. Tests that need them are skipped (a JUnit
 * assumption) where they are absent.
 */
public final class PrometheusBinaries {
    public static final Path INSTALL_DIR = Path.of("/opt/delayq-tools/prometheus/usr/bin");

    private PrometheusBinaries() {
    }

    public static Optional<Path> promtool() {
        return find("PROMTOOL_BIN", "promtool");
    }

    public static Optional<Path> prometheus() {
        return find("PROMETHEUS_BIN", "prometheus");
    }

    /** Call from a test method or @BeforeEach, so that Surefire reports the tests as skipped. */
    public static Path requirePromtool() {
        Optional<Path> p = promtool();
        assumeTrue(p.isPresent(), "promtool not found: run .ci/install-prometheus.sh or set PROMTOOL_BIN");
        return p.get();
    }

    public static Path requirePrometheus() {
        Optional<Path> p = prometheus();
        assumeTrue(p.isPresent(), "prometheus not found: run .ci/install-prometheus.sh or set PROMETHEUS_BIN");
        return p.get();
    }

    private static Optional<Path> find(String env, String name) {
        String configured = System.getenv(env);
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(env + " is " + configured + ", which is not an executable file");
            }
            return Optional.of(p);
        }
        Path installed = INSTALL_DIR.resolve(name);
        if (Files.isExecutable(installed)) {
            return Optional.of(installed);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(":")).filter(d -> !d.isBlank()).map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }
}
