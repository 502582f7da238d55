package io.delayq.images.podman;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.awaitility.Awaitility.await;

/** A container started from a {@link PodmanPod}, removed on close; the test's kubelet. */
public final class RunningPod implements AutoCloseable {
    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Podman podman;
    private final PodmanPod pod;
    private final String name;

    private RunningPod(Podman podman, PodmanPod pod, String name) {
        this.podman = podman;
        this.pod = pod;
        this.name = name;
    }

    /** {@code podman run -d} with the machine's flags, then the pod's. */
    public static RunningPod start(Podman podman, PodmanPod pod, String namePrefix) {
        String name = "delayq-it-" + namePrefix + "-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("run", "-d", "--name", name, "--hostname", namePrefix));
        args.addAll(podman.machineFlags());
        args.addAll(pod.runFlags());
        args.add(pod.image());
        args.addAll(pod.args());
        Podman.Result r = podman.run(args);
        if (!r.ok()) {
            throw new IllegalStateException("podman run failed (" + r.exitCode() + "):\n" + r.output());
        }
        return new RunningPod(podman, pod, name);
    }

    public String name() {
        return name;
    }

    /** The host port a named container port is published on (found again after a restart). */
    public int hostPort(String portName) {
        Integer port = pod.ports().get(portName);
        if (port == null) {
            throw new IllegalArgumentException("the container has no port named " + portName + ": " + pod.ports());
        }
        String out = podman.check(List.of("podman", "port", name, port + "/tcp"), Duration.ofSeconds(30)).output().strip();
        return Integer.parseInt(out.substring(out.lastIndexOf(':') + 1).split("\\s")[0]);
    }

    /** GET of a path on a named port; status and body, or status -1 when nothing answers. */
    public Response get(String portName, String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + hostPort(portName) + path))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            return new Response(-1, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Response(-1, e.toString());
        }
    }

    /** Waits, as a readiness probe, until the path answers 200; fails with the container's log. */
    public void awaitHttp200(String portName, String path, Duration atMost) {
        try {
            await(name + " answers " + path).atMost(atMost).pollInterval(Duration.ofMillis(100))
                    .failFast(name + " is not running", () -> !isRunning())
                    .until(() -> get(portName, path).status() == 200);
        } catch (org.awaitility.core.ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "; container state " + state() + ", log:\n" + logs(), e);
        }
    }

    /** {@code podman stop}: SIGTERM, then SIGKILL after the pod's termination grace period, as the kubelet does. */
    public Stopped stop() {
        long start = System.nanoTime();
        podman.check(List.of("podman", "stop", "--time", String.valueOf(pod.terminationGrace().toSeconds()), name),
                pod.terminationGrace().plusMinutes(1));
        return new Stopped(exitCode(), Duration.ofNanos(System.nanoTime() - start));
    }

    /** {@code podman kill -s KILL}: the process dies at once, nothing runs its shutdown. */
    public void kill() {
        podman.check(List.of("podman", "kill", "-s", "KILL", name), Duration.ofSeconds(30));
        await(name + " dead").atMost(Duration.ofSeconds(30)).until(() -> !isRunning());
    }

    /** {@code podman start} of the stopped container: the kubelet restarting it in the same pod. */
    public void restart() {
        podman.check(List.of("podman", "start", name), Duration.ofMinutes(1));
    }

    public boolean isRunning() {
        return "running".equals(state());
    }

    public String state() {
        return inspect("{{.State.Status}}");
    }

    public int exitCode() {
        return Integer.parseInt(inspect("{{.State.ExitCode}}"));
    }

    public boolean oomKilled() {
        return Boolean.parseBoolean(inspect("{{.State.OOMKilled}}"));
    }

    /** {@code /proc/1/status} of the container's main process (user ids, capabilities, NoNewPrivs, Seccomp). */
    public String mainProcessStatus() {
        return podman.check(List.of("podman", "exec", name, "cat", "/proc/1/status"), Duration.ofSeconds(30)).output();
    }

    /** A command run inside the running container, with its output and exit code. */
    public Podman.Result exec(String... command) {
        List<String> args = new ArrayList<>(List.of("exec", name));
        args.addAll(List.of(command));
        return podman.run(args);
    }

    public String logs() {
        return podman.run(List.of("logs", name)).output();
    }

    private String inspect(String format) {
        return podman.check(List.of("podman", "inspect", "--format", format, name), Duration.ofSeconds(30)).output().strip();
    }

    @Override
    public void close() {
        podman.run(List.of("rm", "-f", "--time", "0", name));
    }

    public record Response(int status, String body) {
    }

    public record Stopped(int exitCode, Duration took) {
    }
}
