package io.delayq.chaos.fleet;

import io.delayq.settings.WorkerSettings;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One packaged worker JVM ({@code io.delayq.app.Main}) with the recorder jar on its classpath. */
public final class WorkerProcess {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private final Process process;
    private final int httpPort;
    private final Path log;

    private WorkerProcess(Process process, int httpPort, Path log) {
        this.process = process;
        this.httpPort = httpPort;
        this.log = log;
    }

    static WorkerProcess start(List<String> command, Map<String, String> env, int httpPort, Path recordFile, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> WorkerSettings.isDelayqVariable(k) || k.startsWith("CHAOS_"));
        pb.environment().putAll(env);
        pb.environment().put(WorkerSettings.HTTP_PORT.name(), String.valueOf(httpPort));
        pb.environment().put("CHAOS_RECORD_FILE", recordFile.toString());
        return new WorkerProcess(pb.start(), httpPort, log);
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** {@code /readyz} answered 200 (Redis reachable, scripts loaded, not stopping). */
    public boolean ready() {
        return probe("/readyz");
    }

    private boolean probe(String path) {
        try {
            return HTTP.send(request(path), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path)).timeout(Duration.ofSeconds(1)).GET().build();
    }

    /** SIGKILL: no shutdown hook, no acks; its leases are left to expire. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** SIGTERM without waiting (so that a whole fleet stops in parallel). */
    void terminateAsync() {
        process.destroy();
    }

    /** SIGTERM and the graceful stop's exit code (-1 when it did not stop within the limit). */
    public int terminate(Duration limit) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            kill9();
            return -1;
        }
        return process.exitValue();
    }
}
