package io.delayq.app.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The packaged worker ({@code target/delayq.jar}) running as a real JVM process. */
final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private WorkerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static WorkerProcess start(Map<String, String> env) throws IOException {
        return start(env, List.of());
    }

    /** The packaged jar with arguments: an admin command of the same executable ({@code reshard orders --to 16}). */
    static WorkerProcess start(Map<String, String> env, List<String> args) throws IOException {
        Path jar = Path.of("target", "delayq.jar").toAbsolutePath();
        if (!Files.exists(jar)) {
            throw new IllegalStateException("run `mvn package` first: " + jar + " is missing");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Files.createTempFile("delayq-worker-", ".log");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx256m", "-jar", jar.toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("DELAYQ_") || k.equals("REDIS_URL"));
        pb.environment().putAll(env);
        return new WorkerProcess(pb.start(), log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: no shutdown hook, no acks, leases left to expire. */
    void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM, then the exit code of the graceful stop. */
    int terminate() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    /** Waits for the process to end by itself and answers its exit code (-1 when it did not within the time). */
    int waitFor(java.time.Duration atMost) throws InterruptedException {
        return process.waitFor(atMost.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill9();
        }
    }
}
