package io.delayq.localredis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process on a free loopback port, for tests, benchmarks and the
 * one-command local run. It uses the {@code redis-server} on PATH (or {@code DELAYQ_REDIS_SERVER}),
 * otherwise the binary that the {@code com.github.codemonstur:embedded-redis} jar carries when that
 * jar is on the classpath, so a machine with only a JDK and Maven still gets a real Redis.
 */
public final class LocalRedisServer implements AutoCloseable {
    private final Path binary;
    private final List<String> extraArgs;
    private final Path dir;
    private final int port;
    private Process process;

    private LocalRedisServer(Path binary, int port, List<String> extraArgs) throws IOException {
        this.binary = binary;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
        this.dir = Files.createTempDirectory("delayq-redis-" + port + "-");
    }

    /** Starts a server with persistence off. */
    public static LocalRedisServer start(String... extraArgs) {
        return start(freePort(), List.of(extraArgs));
    }

    public static LocalRedisServer start(int port, List<String> extraArgs) {
        try {
            LocalRedisServer server = new LocalRedisServer(findBinary(), port, extraArgs);
            server.launch();
            return server;
        } catch (IOException e) {
            throw new LocalRedisException("cannot start redis-server: " + e.getMessage(), e);
        }
    }

    /** Whether a redis-server can be found at all (on PATH, by DELAYQ_REDIS_SERVER, or embedded). */
    public static boolean available() {
        try {
            findBinary();
            return true;
        } catch (RuntimeException | IOException e) {
            return false;
        }
    }

    /** Where the server comes from, for the line the local run prints. */
    public String origin() {
        return binary.toString();
    }

    private void launch() throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--protected-mode", "no"));
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new LocalRedisException("redis-server exited at start: " + Files.readString(dir.resolve("redis.log")));
            }
            if (ping()) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalRedisException("interrupted while starting redis-server", e);
            }
        }
        process.destroyForcibly();
        throw new LocalRedisException("redis-server did not answer PING within 20 s on port " + port);
    }

    private boolean ping() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            s.setSoTimeout(1000);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] buf = new byte[64];
            int n = s.getInputStream().read(buf);
            // "-LOADING" means the server is up but still reading its data: not ready yet;
            // "-NOAUTH" is a ready server that wants credentials (--requirepass, or ACL with the default user off)
            String reply = n > 0 ? new String(buf, 0, n, StandardCharsets.US_ASCII) : "";
            return reply.startsWith("+PONG") || reply.startsWith("-NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    public Path dir() {
        return dir;
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Stops the process (SIGKILL) and starts it again on the same port with the same arguments and data folder. */
    public void restart() {
        kill();
        try {
            launch();
        } catch (IOException e) {
            throw new LocalRedisException("cannot restart redis-server: " + e.getMessage(), e);
        }
    }

    public void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** SIGSTOP: the process stays, answers nothing (a network partition as the client sees it). */
    public void pause() {
        signal("STOP");
    }

    public void resume() {
        signal("CONT");
    }

    private void signal(String sig) {
        try {
            new ProcessBuilder("kill", "-" + sig, String.valueOf(process.pid())).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new LocalRedisException("cannot send SIG" + sig + " to redis-server", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Kills the process and deletes its data folder (log, cluster config, any dump), so runs leave no litter in /tmp. */
    @Override
    public void close() {
        kill();
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover temp folder is harmless
        }
    }

    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new LocalRedisException("no free port", e);
        }
    }

    static synchronized Path findBinary() throws IOException {
        String explicit = System.getenv("DELAYQ_REDIS_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(File.pathSeparator)) {
                Path candidate = Path.of(d, "redis-server");
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return extractEmbedded();
    }

    private static Path extractEmbedded() throws IOException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        boolean arm = arch.contains("aarch64") || arch.contains("arm");
        String resource;
        if (os.contains("mac")) {
            resource = arm ? "redis-server-6.2.6-v5-darwin-arm64" : "redis-server-6.2.6-v5-darwin-amd64";
        } else {
            resource = arm ? "redis-server-6.2.7-linux-arm64" : "redis-server-6.2.6-v5-linux-amd64";
        }
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "delayq-" + resource);
        if (Files.isExecutable(target)) {
            return target;
        }
        try (InputStream in = LocalRedisServer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new LocalRedisException("no redis-server on PATH and no embedded-redis jar on the classpath "
                        + "(install redis-server, set DELAYQ_REDIS_SERVER, or add com.github.codemonstur:embedded-redis)");
            }
            Path tmp = Files.createTempFile(target.getParent(), "delayq-redis", ".tmp");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            tmp.toFile().setExecutable(true);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        return target;
    }
}
