package io.delayq.chaos;

import io.delayq.chaos.fleet.WorkerBinaries;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** What every scenario shares: the binaries it starts, where runs leave their files, the dice, the log. */
public final class ChaosContext {
    private final WorkerBinaries binaries;
    private final Path outDir;
    private final Random random;
    private final long seed;
    private final PrintStream log;
    private final long startNanos = System.nanoTime();

    public ChaosContext(WorkerBinaries binaries, Path outDir, long seed, PrintStream log) throws IOException {
        this.binaries = binaries;
        this.outDir = Files.createDirectories(outDir);
        this.seed = seed;
        this.random = new Random(seed);
        this.log = log;
    }

    public WorkerBinaries binaries() {
        return binaries;
    }

    /**
     * A fresh folder for one scenario's record files and worker output. Files a previous run left there
     * are deleted first: the recorders append, and old records would count as executions of this run.
     */
    public Path dirFor(String scenario) throws IOException {
        Path dir = outDir.resolve(scenario);
        if (Files.isDirectory(dir)) {
            try (var old = Files.list(dir)) {
                for (Path f : old.toList()) {
                    Files.delete(f);
                }
            }
        }
        return Files.createDirectories(dir);
    }

    public Random random() {
        return random;
    }

    public long seed() {
        return seed;
    }

    public void log(String format, Object... args) {
        double t = (System.nanoTime() - startNanos) / 1e9;
        log.printf("[chaos %7.1fs] %s%n", t, String.format(format, args));
        log.flush();
    }
}
