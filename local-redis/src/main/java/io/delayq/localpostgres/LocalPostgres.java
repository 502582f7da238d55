package io.delayq.localpostgres;

import io.delayq.localredis.LocalRedisServer;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests and benchmarks: {@code initdb} in a temporary directory and {@code postgres} on a
 * free loopback port, trust authentication for the user {@code delayq}. The binaries come from PATH or Debian's
 * {@code /usr/lib/postgresql/15/bin} (.ci/install-postgresql.sh installs them); {@link #installed()} says whether they
 * are there. As root (PostgreSQL refuses to run as root) the server runs as the {@code postgres} user the Debian
 * package creates. Connecting needs PostgreSQL's JDBC driver on the caller's classpath.
 */
public final class LocalPostgres implements AutoCloseable {
    private static final Path DEBIAN_BIN = Path.of("/usr/lib/postgresql/15/bin");
    public static final String USER = "delayq";
    public static final String DATABASE = "postgres";

    /** Durability traded for speed, as a test wants it; {@link #start(Map)} overrides any of them. */
    public static final Map<String, String> TEST_SETTINGS = Map.of("fsync", "off", "synchronous_commit", "off", "full_page_writes", "off");

    private final Path bin;
    private final Path dir;
    private final int port;
    private final List<String> runAs;
    private final Map<String, String> settings;
    private Process process;

    private LocalPostgres(Path bin, Path dir, int port, List<String> runAs, Map<String, String> settings) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.runAs = runAs;
        this.settings = settings;
    }

    /** Whether {@code initdb} and {@code postgres} were found (else {@link #start()} throws). */
    public static boolean installed() {
        return findBinaries() != null;
    }

    /**
     * Where {@code initdb} and {@code postgres} are, or null: Debian's directory first, else the real directory of an
     * {@code initdb} on PATH (a link on PATH, as /usr/local/bin or CI's PATH shim has, would make initdb look for
     * {@code postgres} beside the link).
     */
    public static final String NOT_INSTALLED = "PostgreSQL is not installed (no initdb on PATH or in " + DEBIAN_BIN
            + "; run .ci/install-postgresql.sh)";

    static Path findBinaries() {
        if (Files.isExecutable(DEBIAN_BIN.resolve("initdb")) && Files.isExecutable(DEBIAN_BIN.resolve("postgres"))) {
            return DEBIAN_BIN;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                Path initdb = Path.of(d, "initdb");
                if (!Files.isExecutable(initdb)) {
                    continue;
                }
                try {
                    Path real = initdb.toRealPath().getParent();
                    if (Files.isExecutable(real.resolve("postgres"))) {
                        return real;
                    }
                } catch (java.io.IOException e) {
                    // a dangling link: look further
                }
            }
        }
        return null;
    }

    /** Initializes and starts a cluster with {@link #TEST_SETTINGS}. */
    public static LocalPostgres start() {
        return start(Map.of());
    }

    /**
     * Initializes and starts a cluster with {@link #TEST_SETTINGS}, then {@code overrides} (server settings by name, as
     * {@code postgres -c name=value} takes them).
     */
    public static LocalPostgres start(Map<String, String> overrides) {
        Path bin = findBinaries();
        if (bin == null) {
            throw new IllegalStateException(NOT_INSTALLED);
        }
        Map<String, String> settings = new LinkedHashMap<>(TEST_SETTINGS);
        settings.putAll(overrides);
        try {
            List<String> runAs = "root".equals(System.getProperty("user.name"))
                    ? List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--")
                    : List.of();
            Path dir = Files.createTempDirectory("delayq-pg-");
            if (!runAs.isEmpty()) {
                exec(List.of("chown", "postgres:postgres", dir.toString()));
            }
            LocalPostgres pg = new LocalPostgres(bin, dir, LocalRedisServer.freePort(), runAs, Map.copyOf(settings));
            pg.initdb();
            pg.launch();
            return pg;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start PostgreSQL: " + e.getMessage(), e);
        }
    }

    private void initdb() throws IOException {
        List<String> cmd = new ArrayList<>(runAs);
        cmd.addAll(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C"));
        exec(cmd);
    }

    private void launch() throws IOException {
        List<String> cmd = new ArrayList<>(runAs);
        cmd.addAll(List.of(bin.resolve("postgres").toString(), "-D", dir.resolve("data").toString(), "-p", String.valueOf(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=" + dir));
        settings.forEach((name, value) -> cmd.addAll(List.of("-c", name + "=" + value)));
        process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("postgres.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("postgres exited at start: " + Files.readString(dir.resolve("postgres.log")));
            }
            try (Connection c = connect()) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting postgres", e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("postgres did not accept connections within 30 s on port " + port, last);
    }

    private static void exec(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        try {
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + String.join(" ", cmd), e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /** The loopback port, for clients in other languages (host 127.0.0.1, user {@link #USER}, database {@link #DATABASE}). */
    public int port() {
        return port;
    }

    public Properties credentials() {
        Properties p = new Properties();
        p.setProperty("user", USER);
        return p;
    }

    /** The server's log file (postgres' own output). */
    public Path log() {
        return dir.resolve("postgres.log");
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), credentials());
    }

    /** Stops the server at once (as a crash: no checkpoint, sessions cut) and starts it again on the same port and data. */
    public void restart() {
        stop();
        try {
            launch();
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart postgres: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover temp folder is harmless
        }
    }

    private void stop() {
        if (process != null && process.isAlive()) {
            // SIGQUIT: immediate shutdown, nothing to keep
            try {
                new ProcessBuilder("kill", "-QUIT", String.valueOf(process.pid())).start().waitFor();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
