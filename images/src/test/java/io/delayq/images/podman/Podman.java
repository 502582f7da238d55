package io.delayq.images.podman;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code podman} command line, run as a child process. Every container is started with
 * {@code runc} when it is installed (podman's default {@code crun} refuses the hybrid cgroup layout
 * of these machines) and with explicit rlimits (the runtime's defaults are refused here).
 */
public final class Podman {
    private static final Path RUNC = Path.of("/usr/sbin/runc");
    private static volatile Optional<String> unavailable;

    private final HostLimits limits = HostLimits.read();

    private Podman() {
    }

    /** A podman that can run containers, or the test is skipped with the reason. */
    public static Podman require() {
        Optional<String> reason = unavailableReason();
        assumeTrue(reason.isEmpty(), () -> "no container runtime: " + reason.orElse("") + " (see docs/images.md)");
        return new Podman();
    }

    static synchronized Optional<String> unavailableReason() {
        if (unavailable == null) {
            unavailable = probe();
        }
        return unavailable;
    }

    private static Optional<String> probe() {
        try {
            Result info = exec(List.of("podman", "info", "--format", "{{.Host.OCIRuntime.Name}}"), Duration.ofSeconds(60));
            return info.ok() ? Optional.empty() : Optional.of("`podman info` failed: " + info.output().strip());
        } catch (UncheckedIOException e) {
            return Optional.of("`podman` is not installed (.ci/install-containers.sh installs it)");
        }
    }

    /** The flags every container gets from this machine rather than from a pod spec. */
    List<String> machineFlags() {
        List<String> flags = new ArrayList<>();
        if (Files.isExecutable(RUNC)) {
            flags.addAll(List.of("--runtime", RUNC.toString()));
        }
        flags.addAll(List.of("--ulimit", "nofile=" + limits.openFiles() + ":" + limits.openFiles(),
                "--ulimit", "nproc=" + limits.processes() + ":" + limits.processes()));
        return flags;
    }

    /** {@code podman load}: the image's name as the archive tags it. */
    public String load(Path archive) {
        Result r = check(List.of("podman", "load", "-i", archive.toString()), Duration.ofMinutes(5));
        for (String line : r.output().split("\n")) {
            if (line.startsWith("Loaded image")) {
                return line.substring(line.indexOf(':') + 1).strip().split(",")[0].strip();
            }
        }
        throw new IllegalStateException("podman load printed no image name:\n" + r.output());
    }

    public Result run(List<String> args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(args);
        return exec(command, Duration.ofMinutes(2));
    }

    public Result check(List<String> command, Duration timeout) {
        Result r = exec(command, timeout);
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + r.exitCode() + ":\n" + r.output());
        }
        return r;
    }

    /** Runs a command to its end (stdout and stderr together). */
    static Result exec(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            // read while it runs: a full pipe would block the child
            byte[][] out = new byte[1][];
            Thread reader = new Thread(() -> {
                try {
                    out[0] = p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    out[0] = ("(output unreadable: " + e + ")").getBytes(StandardCharsets.UTF_8);
                }
            });
            reader.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            reader.join();
            return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }

    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }
}
