package io.delayq.prometheus;

import io.delayq.settings.WorkerSettings;
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
        env.put(WorkerSettings.REDIS_URL.name(), redisUrl);
        env.put(WorkerSettings.QUEUE.name(), queue);
        env.put(WorkerSettings.SHARDS.name(), String.valueOf(shards));
        env.put(WorkerSettings.HTTP_PORT.name(), "0");
        env.put(WorkerSettings.POLL_INTERVAL.name(), "200ms");
        env.put(WorkerSettings.CONCURRENCY.name(), String.valueOf(concurrency));
        env.put(WorkerSettings.BATCH_SIZE.name(), String.valueOf(concurrency));
        env.put(WorkerSettings.RETRY_MAX_ATTEMPTS.name(), "2");
        env.put(WorkerSettings.RETRY_BACKOFF_INITIAL.name(), "100ms");
        env.put(WorkerSettings.RETRY_BACKOFF_MAX.name(), "200ms");
        env.put(WorkerSettings.SHUTDOWN_GRACE.name(), "1s");
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
