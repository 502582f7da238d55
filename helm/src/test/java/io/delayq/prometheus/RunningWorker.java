package io.delayq.prometheus;

import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** A real worker started in-process, as its process starts it (WorkerConfig.fromEnv, Worker.start). */
final class RunningWorker implements AutoCloseable {
    private final Worker worker;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private RunningWorker(Worker worker) {
        this.worker = worker;
    }

    static RunningWorker start(String redisUrl, String queue, int shards, int concurrency, ScriptedDelivery delivery) {
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_REDIS_URL", redisUrl);
        env.put("DELAYQ_QUEUE", queue);
        env.put("DELAYQ_SHARDS", String.valueOf(shards));
        env.put("DELAYQ_HTTP_PORT", "0");
        env.put("DELAYQ_POLL_INTERVAL", "200ms");
        env.put("DELAYQ_CONCURRENCY", String.valueOf(concurrency));
        env.put("DELAYQ_BATCH_SIZE", String.valueOf(concurrency));
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "2");
        env.put("DELAYQ_RETRY_BACKOFF_INITIAL", "100ms");
        env.put("DELAYQ_RETRY_BACKOFF_MAX", "200ms");
        env.put("DELAYQ_SHUTDOWN_GRACE", "1s");
        return new RunningWorker(Worker.start(WorkerConfig.fromEnv(env), redis -> delivery));
    }

    int port() {
        return worker.httpPort();
    }

    String target() {
        return "127.0.0.1:" + port();
    }

    Worker worker() {
        return worker;
    }

    /** GET /metrics over HTTP, as Prometheus does. */
    String scrape() throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + target() + "/metrics"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /metrics answered " + r.statusCode());
        }
        return r.body();
    }

    /** Graceful stop: in-flight deliveries finish and their outcomes reach Redis. */
    @Override
    public void close() {
        worker.shutdown(Duration.ofSeconds(5));
    }
}
