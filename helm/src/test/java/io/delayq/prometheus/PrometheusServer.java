package io.delayq.prometheus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A real Prometheus server on a free loopback port, scraping the given targets every second,
 * with its storage in a folder of the test's; {@link #close()} stops the process.
 */
public final class PrometheusServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private PrometheusServer(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    /** One scrape job: its targets (host:port), the target labels a Kubernetes monitor would add, and honor_labels. */
    public record ScrapeJob(String name, List<String> targets, Map<String, String> labels, boolean honorLabels) {
        public static ScrapeJob of(String name, String target) {
            return new ScrapeJob(name, List.of(target), Map.of(), false);
        }

        String yaml() {
            String targetList = targets.stream().map(t -> "'" + t + "'").collect(Collectors.joining(", "));
            String labelList = labels.entrySet().stream().map(e -> e.getKey() + ": '" + e.getValue() + "'").collect(Collectors.joining(", "));
            return """
                      - job_name: %s
                        honor_labels: %s
                        static_configs:
                          - targets: [%s]
                            labels: {%s}
                    """.formatted(name, honorLabels, targetList, labelList);
        }
    }

    /**
     * @param jobs     what to scrape, every second
     * @param ruleFile a rule file Prometheus loads and evaluates, or null
     */
    public static PrometheusServer start(Path binary, Path dir, List<ScrapeJob> jobs, Path ruleFile) {
        try {
            Files.createDirectories(dir);
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, """
                    global:
                      scrape_interval: 1s
                      scrape_timeout: 1s
                      evaluation_interval: 1s
                    %s
                    scrape_configs:
                    %s""".formatted(ruleFile == null ? "" : "rule_files: ['" + ruleFile.toAbsolutePath() + "']",
                    jobs.stream().map(ScrapeJob::yaml).collect(Collectors.joining())));
            int port = freePort();
            Path log = dir.resolve("prometheus.log");
            Process p = new ProcessBuilder(binary.toString(),
                    "--config.file=" + config,
                    "--storage.tsdb.path=" + dir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--log.level=warn")
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            PrometheusServer server = new PrometheusServer(p, log, port);
            try {
                await("Prometheus ready on port " + port).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .ignoreExceptions().until(() -> {
                            if (!p.isAlive()) {
                                throw new IllegalStateException("prometheus exited: " + server.log());
                            }
                            return server.get("/-/ready").statusCode() == 200;
                        });
            } catch (RuntimeException e) {
                server.close();
                throw new IllegalStateException("Prometheus did not start: " + e.getMessage() + "\n" + server.log(), e);
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** `GET /api/v1/query`: the whole JSON answer (status, data.resultType, data.result). */
    public JsonNode query(String promql) {
        return getJson("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /** The single scalar a query returns, or null when its vector is empty. */
    public Double queryValue(String promql) {
        JsonNode answer = query(promql);
        if (!"success".equals(answer.path("status").asText())) {
            throw new IllegalStateException("query failed: " + promql + ": " + answer);
        }
        JsonNode result = answer.at("/data/result");
        if (result.isEmpty()) {
            return null;
        }
        if (result.size() != 1) {
            throw new IllegalStateException("query returned " + result.size() + " series: " + promql);
        }
        return Double.parseDouble(result.get(0).at("/value/1").asText());
    }

    public JsonNode getJson(String path) {
        try {
            HttpResponse<String> r = get(path);
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        try {
            return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
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
}
