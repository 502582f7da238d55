package io.delayq.kube.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One program of the cluster as a child process, its output in a log file of its own so that a failed start
 * can say why.
 */
final class ClusterProcess {
    private final String name;
    private final List<String> command;
    private final Path log;
    private Process process;

    ClusterProcess(String name, List<String> command, Path dir) {
        this.name = name;
        this.command = List.copyOf(command);
        this.log = dir.resolve(name + ".log");
    }

    void start() {
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + ")", e);
        }
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    /** Throws with the end of the log when the process has ended; called while waiting for it to be ready. */
    void requireAlive() {
        if (!alive()) {
            throw new IllegalStateException(name + " exited with " + (process == null ? "?" : process.exitValue())
                    + "; the end of its log (" + log + "):\n" + tail(40));
        }
    }

    /**
     * Waits until {@code ready} holds, failing with the end of the log if the process ends or the time runs out.
     * Exceptions from {@code ready} count as "not yet": a starting server refuses connections and answers 5xx.
     */
    void awaitReady(java.util.function.BooleanSupplier ready, java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            requireAlive();
            try {
                if (ready.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // still starting
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name);
            }
        }
        throw new IllegalStateException(name + " not ready after " + timeout.toSeconds() + " s; the end of its log (" + log + "):\n"
                + tail(40));
    }

    /** SIGTERM, then SIGKILL after 15 s. */
    void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** SIGKILL: what a crash or an OOM kill does. */
    void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    Path log() {
        return log;
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
