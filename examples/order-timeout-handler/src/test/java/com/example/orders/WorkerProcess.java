package com.example.orders;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The stock worker ({@code io.delayq.app.Main}) in a JVM of its own, on the worker's class path only: this
 * project's classes are left out, so the handler can reach it only through {@code DELAYQ_HANDLER_PATH}.
 */
final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private WorkerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static WorkerProcess start(Map<String, String> env, Path log) throws IOException {
        Path target = Path.of(System.getProperty("project.target", "target")).toAbsolutePath().normalize();
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !Path.of(entry).toAbsolutePath().normalize().startsWith(target))
                .collect(Collectors.joining(File.pathSeparator));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", classPath, "io.delayq.app.Main"))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("DELAYQ_"));
        pb.environment().putAll(env);
        return new WorkerProcess(pb.start(), log);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    int waitForExit() throws InterruptedException {
        return process.waitFor();
    }

    String output() throws IOException {
        return java.nio.file.Files.readString(log);
    }

    /** SIGTERM: the worker finishes in-flight tasks and exits 0. */
    int stop() throws InterruptedException {
        process.destroy();
        return process.waitFor();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
