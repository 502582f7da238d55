package io.delayq.chaos.fleet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the packaged worker ({@code app/target/delayq.jar} with its {@code lib/}) and the
 * recorder jar are, and the command that runs them together:
 * {@code java -cp delayq.jar:lib/*:delayq-chaos-recorder.jar io.delayq.app.Main}.
 */
public record WorkerBinaries(Path workerJar, Path recorderJar) {
    public WorkerBinaries {
        if (!Files.isRegularFile(workerJar)) {
            throw new IllegalStateException("the packaged worker is missing: " + workerJar
                    + " (build it: mvn -pl chaos -am package -DskipTests)");
        }
        if (!Files.isRegularFile(recorderJar)) {
            throw new IllegalStateException("the recorder jar is missing: " + recorderJar
                    + " (build it: mvn -pl chaos -am package -DskipTests)");
        }
    }

    /** From {@code -Ddelayq.worker.jar} / {@code -Ddelayq.recorder.jar}, else the build folders under {@code repoRoot}. */
    public static WorkerBinaries locate(Path repoRoot) {
        Path worker = Path.of(System.getProperty("delayq.worker.jar", repoRoot.resolve("app/target/delayq.jar").toString()));
        Path recorder = Path.of(System.getProperty("delayq.recorder.jar",
                repoRoot.resolve("chaos/target/delayq-chaos-recorder.jar").toString()));
        return new WorkerBinaries(worker.toAbsolutePath().normalize(), recorder.toAbsolutePath().normalize());
    }

    List<String> command() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = workerJar + ":" + workerJar.resolveSibling("lib") + "/*:" + recorderJar;
        // a small heap and the serial collector: three workers, Redis and the runner share two cores here
        return List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp, "io.delayq.app.Main");
    }

    /** The packaged executable running one admin command ({@code delayq reshard …}): the same jar and JVM flags as a worker. */
    List<String> command(List<String> args) {
        List<String> cmd = new java.util.ArrayList<>(command());
        cmd.addAll(args);
        return cmd;
    }
}
