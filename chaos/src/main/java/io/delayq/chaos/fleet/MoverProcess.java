package io.delayq.chaos.fleet;

import io.delayq.settings.WorkerSettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code delayq reshard QUEUE --to M --batch B} (or {@code delayq upgrade}) as its own JVM (the packaged executable),
 * the process a person or the operator's job runs: it can be killed with SIGKILL mid-move and run again, which resumes from what
 * Redis holds. Its output goes to a file of its own ({@code mover-<n>.out}).
 */
public final class MoverProcess {
    private final Process process;
    private final Path log;

    private MoverProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static MoverProcess start(WorkerBinaries binaries, String redisUrl, String queue, int to, int batch, Path log) throws IOException {
        List<String> args = List.of("reshard", queue, "--to", String.valueOf(to), "--batch", String.valueOf(batch));
        ProcessBuilder pb = new ProcessBuilder(binaries.command(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(WorkerSettings::isDelayqVariable);
        pb.environment().put(WorkerSettings.REDIS_URL.name(), redisUrl);
        return new MoverProcess(pb.start(), log);
    }

    /** {@code delayq upgrade QUEUE --wait W} (docs/protocol3.md, "Upgrade in place") as its own JVM, killable the same way. */
    public static MoverProcess upgrade(WorkerBinaries binaries, String redisUrl, String queue, Duration wait, Path log) throws IOException {
        List<String> args = List.of("upgrade", "--queue", queue, "--wait", wait.toMillis() + "ms");
        ProcessBuilder pb = new ProcessBuilder(binaries.command(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(WorkerSettings::isDelayqVariable);
        pb.environment().put(WorkerSettings.REDIS_URL.name(), redisUrl);
        return new MoverProcess(pb.start(), log);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits up to {@code limit} for the exit; answers the exit code, or -1 when it still runs. */
    public int waitFor(Duration limit) throws InterruptedException {
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    public String output() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    /** The last line it printed (its outcome: "finished: …", "resumed and finished: …", or an error). */
    public String lastLine() {
        String[] lines = output().strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }
}
