package io.delayq.chaos.fleet;

import io.delayq.localredis.LocalRedisServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * N packaged worker processes sharing one configuration. Each process incarnation records into a
 * file of its own ({@code worker-<n>-<generation>.log}), so a killed worker's file is never
 * appended to by its successor.
 */
public final class WorkerFleet implements AutoCloseable {
    private final List<String> command;
    private final Map<String, String> env;
    private final Path dir;
    private final WorkerProcess[] workers;
    private final int[] generations;
    private final List<Path> recordFiles = new ArrayList<>();

    public WorkerFleet(WorkerBinaries binaries, Map<String, String> env, Path dir, int size) {
        this.command = binaries.command();
        this.env = Map.copyOf(env);
        this.dir = dir;
        this.workers = new WorkerProcess[size];
        this.generations = new int[size];
    }

    public void startAll() throws IOException {
        for (int i = 0; i < workers.length; i++) {
            start(i);
        }
    }

    private void start(int i) throws IOException {
        generations[i]++;
        Path records = dir.resolve("worker-" + (i + 1) + "-" + generations[i] + ".records");
        Path log = dir.resolve("worker-" + (i + 1) + "-" + generations[i] + ".out");
        Files.createDirectories(dir);
        synchronized (recordFiles) {
            recordFiles.add(records);
        }
        workers[i] = WorkerProcess.start(command, env, LocalRedisServer.freePort(), records, log);
    }

    public int size() {
        return workers.length;
    }

    public WorkerProcess get(int i) {
        return workers[i];
    }

    /** kill -9 worker {@code i} and start a fresh process in its place (the way a Deployment would). */
    public void killAndRestart(int i) throws IOException, InterruptedException {
        workers[i].kill9();
        start(i);
    }

    /** Starts every worker and waits until each answers /readyz (a worker that dies meanwhile fails fast). */
    public void startAllAndAwaitReady(Duration within) throws IOException, InterruptedException {
        startAll();
        io.delayq.chaos.Waits.require(within, "all workers ready", () -> {
            try {
                requireAlive();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return allReady();
        });
    }

    public boolean allReady() {
        for (WorkerProcess w : workers) {
            if (!w.ready()) {
                return false;
            }
        }
        return true;
    }

    /** Every incarnation's record file, the killed ones included. */
    public List<Path> recordFiles() {
        synchronized (recordFiles) {
            return List.copyOf(recordFiles);
        }
    }

    /** A process that exited on its own (not killed by us): the start failed; its output says why. */
    public void requireAlive() throws IOException {
        for (WorkerProcess w : workers) {
            if (!w.isAlive()) {
                throw new IllegalStateException("worker process " + w.pid() + " exited by itself:\n" + Files.readString(w.log()));
            }
        }
    }

    /** SIGTERM to all; answers the exit codes. */
    public List<Integer> terminateAll() throws InterruptedException {
        List<Integer> codes = new ArrayList<>();
        for (WorkerProcess w : workers) {
            if (w != null && w.isAlive()) {
                w.terminateAsync();
            }
        }
        for (WorkerProcess w : workers) {
            if (w != null) {
                codes.add(w.terminate(Duration.ofSeconds(60)));
            }
        }
        return codes;
    }

    @Override
    public void close() throws InterruptedException {
        for (WorkerProcess w : workers) {
            if (w != null && w.isAlive()) {
                w.kill9();
            }
        }
    }
}
