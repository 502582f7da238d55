package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.settings.Setting;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.WebhookDelivery;
import io.delayq.worker.delivery.HandlerDelivery;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The worker's own costs beside the throughput table: what an idle worker costs Redis at 16, 256 and 1,024 shards;
 * webhook deliveries per second and lag to a fast local keep-alive receiver (node), with the defaults and with
 * more concurrency; and the worker process's footprint (RSS idle and while draining W1, start-up time to /readyz).
 * Each part writes one markdown section; every figure is from this run.
 */
final class WorkerCosts {
    static final String QUEUE = "costs";
    static final long IDLE_WINDOW_MILLIS = 10_000;

    private final Workbench bench;
    private final Path webhookScript;
    private final boolean quick;

    WorkerCosts(Workbench bench, Path webhookScript) {
        this.bench = bench;
        this.webhookScript = webhookScript;
        this.quick = bench.sizes().quick();
    }

    private WorkerEnv env(int shards) {
        return WorkerEnv.of(bench.redisUrl(), QUEUE, shards).set(WorkerSettings.HTTP_PORT, 0);
    }

    /** One idle worker with the default settings over 16, 256, 1,024 shards: commands/s and Redis CPU, after start-up. */
    String idle(int run) {
        StringBuilder md = new StringBuilder("| shards | Redis commands / s | Redis CPU % | busiest commands / s |\n|---:|---:|---:|---|\n");
        for (int shards : new int[] {16, 256, 1024}) {
            bench.probe().flushAll();
            Worker w = Worker.start(WorkerConfig.fromEnv(env(shards).toMap()), redis -> new HandlerDelivery(task -> { }));
            try {
                Pause.millis(3_000); // start-up claims every shard once; measured after that
                RedisProbe.Snapshot a = bench.probe().snapshot();
                Pause.millis(quick ? 3_000 : IDLE_WINDOW_MILLIS);
                RedisProbe.Snapshot b = bench.probe().snapshot();
                RedisUsage u = a.until(b);
                double seconds = (b.nanos() - a.nanos()) / 1e9;
                md.append(String.format("| %,d | %.0f | %.2f | %s |%n", shards, u.commands() / seconds, u.cpuMillis() / 10 / seconds,
                        u.top((int) Math.round(seconds), 4)));
                System.out.printf("  idle %d shards: %.0f commands/s, Redis CPU %.2f %%%n", shards, u.commands() / seconds, u.cpuMillis() / 10 / seconds);
            } finally {
                w.close();
            }
        }
        return "### Run " + run + "\n\n" + md;
    }

    /** Deliveries/s to a keep-alive receiver answering at once (a backlog), and lag at 5,000 tasks/s of 20 ms webhooks. */
    String webhook(int run) throws Exception {
        StringBuilder md = new StringBuilder("| settings | backlog of 20,000, receiver answers at once: deliveries / s | 5,000 tasks/s for 10 s, "
                + "receiver answers in 20 ms: deliveries / s | lag p50 / p99 / max ms | lost |\n|---|---:|---:|---:|---:|\n");
        // the asynchronous path (what the worker runs where the JDK client's common pool has more than one thread) beside
        // the blocking one (a handler thread waiting per request in flight: the worker's path on fewer than three cores,
        // and before webhooks were asynchronous) as the same-run baseline
        List<WebhookRow> configs = List.of(
                new WebhookRow("defaults, asynchronous (" + WorkerSettings.DELIVERY.name() + "=webhook, " + WorkerSettings.WEBHOOK_URL.name() + " only)",
                        Map.of(), true),
                new WebhookRow("defaults, blocking (baseline: a handler thread per request in flight)", Map.of(), false),
                new WebhookRow(WorkerSettings.CONCURRENCY.name() + "=1024, asynchronous", Map.of(WorkerSettings.CONCURRENCY, 1024), true));
        if (run == 1) {
            // unrecorded, as the in-JVM rows' warm-up: the first webhook worker of this JVM otherwise measures the JIT
            // compiler compiling the HTTP client (cold, the defaults' backlog rate reads about a third below the same row warm)
            System.out.printf("  webhook warm-up: backlog %,.0f/s%n", webhookBacklog(new WebhookRow("warm-up", Map.of(), true)));
            System.out.printf("  webhook warm-up, blocking: backlog %,.0f/s%n", webhookBacklog(new WebhookRow("warm-up", Map.of(), false)));
        }
        for (WebhookRow config : configs) {
            double backlog = webhookBacklog(config);
            double[] steady = webhookSteady(config);
            md.append(String.format("| %s | %,.0f | %,.0f | %.0f / %.0f / %.0f | %,.0f |%n", config.name(), backlog, steady[0], steady[1], steady[2],
                    steady[3], steady[4]));
            System.out.printf("  webhook %s: backlog %,.0f/s; 5k/s at 20 ms: %,.0f/s, lag p50 %.0f p99 %.0f max %.0f ms, lost %.0f%n", config.name(),
                    backlog, steady[0], steady[1], steady[2], steady[3], steady[4]);
        }
        return "### Run " + run + "\n\n" + md;
    }

    /** One row of the webhook table: its settings, and whether the delivery runs asynchronously. */
    private record WebhookRow(String name, Map<Setting, Object> extra, boolean async) {
    }

    private double webhookBacklog(WebhookRow row) throws Exception {
        int n = quick ? 5_000 : 20_000;
        bench.probe().flushAll();
        try (Receiver receiver = new Receiver(webhookScript, 0); DelayQueueClient client = client(16)) {
            List<TaskSpec> tasks = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                tasks.add(TaskSpec.of(TaskIds.id(i)).payload("{\"order\":" + i + "}"));
            }
            client.enqueueAll(tasks);
            Worker w = startWebhook(receiver, row);
            try {
                long t0 = System.nanoTime();
                while (receiver.count() < n && System.nanoTime() - t0 < 120_000_000_000L) {
                    Pause.millis(20);
                }
                return receiver.count() / ((System.nanoTime() - t0) / 1e9);
            } finally {
                w.close();
            }
        }
    }

    /** {deliveries/s, p50, p99, max, lost}. */
    private double[] webhookSteady(WebhookRow row) throws Exception {
        int rate = 5_000;
        int seconds = quick ? 3 : 10;
        int n = rate * seconds;
        bench.probe().flushAll();
        try (Receiver receiver = new Receiver(webhookScript, 20); DelayQueueClient client = client(16)) {
            Worker w = startWebhook(receiver, row);
            try {
                Pause.millis(500);
                long t0 = System.nanoTime();
                int chunk = rate / 100; // every 10 ms, 50 tasks due now
                for (int i = 0; i < n; i += chunk) {
                    Pause.until(t0 + (long) i * 1_000_000_000L / rate);
                    List<TaskSpec> tasks = new ArrayList<>();
                    for (int k = i; k < Math.min(n, i + chunk); k++) {
                        tasks.add(TaskSpec.of(TaskIds.id(k)).at(Instant.now()));
                    }
                    client.async().enqueueAll(tasks, io.delayq.task.DuplicatePolicy.REJECT);
                }
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (receiver.count() < n && System.nanoTime() < deadline) {
                    Pause.millis(20);
                }
                double took = (System.nanoTime() - t0) / 1e9;
                Map<String, Double> s = receiver.stats();
                return new double[] {s.get("count") / took, s.get("p50"), s.get("p99"), s.get("max"), n - s.get("count")};
            } finally {
                w.close();
            }
        }
    }

    private DelayQueueClient client(int shards) {
        return DelayQueueClient.builder().redis(bench.redisUrl()).queue(QUEUE).shards(shards).build();
    }

    private Worker startWebhook(Receiver receiver, WebhookRow row) {
        WorkerEnv env = env(16).set(WorkerSettings.DELIVERY, "webhook").set(WorkerSettings.WEBHOOK_URL, receiver.url());
        row.extra().forEach(env::set);
        WorkerConfig config = WorkerConfig.fromEnv(env.toMap());
        return Worker.start(config, redis -> new WebhookDelivery(config.webhookUrl(), config.webhookTimeout(), config.webhookSecret(),
                config.results().on(), row.async()));
    }

    /** The worker as its own process (the packaged jar, defaults, stream delivery): start-up to /readyz, RSS idle and under W1. */
    String footprint(int run, Path workerJar) throws Exception {
        bench.probe().flushAll();
        int port = io.delayq.localredis.LocalRedisServer.freePort();
        ProcessBuilder pb = new ProcessBuilder("java", "-jar", workerJar.toString());
        pb.environment().putAll(env(16).set(WorkerSettings.HTTP_PORT, port).set(WorkerSettings.DELIVERY, "stream")
                .set(WorkerSettings.STREAM_KEY, "costs:ready").set(WorkerSettings.STREAM_MAXLEN, 1000).toMap());
        pb.redirectErrorStream(true).redirectOutput(Path.of("bench", "target", "footprint-worker.log").toFile());
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            double readyMs = -1;
            while (System.nanoTime() - t0 < 60_000_000_000L) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        readyMs = (System.nanoTime() - t0) / 1e6;
                        break;
                    }
                } catch (java.io.IOException notYet) {
                    // not listening yet
                }
                Pause.millis(10);
            }
            Pause.millis(5_000);
            long idleRss = rssKb(p.pid());
            int n = bench.sizes().w1Tasks();
            long peak = idleRss;
            try (DelayQueueClient client = client(16)) {
                List<TaskSpec> tasks = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    tasks.add(TaskSpec.of(TaskIds.id(i)));
                }
                client.enqueueAll(tasks);
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (System.nanoTime() < deadline) {
                    peak = Math.max(peak, rssKb(p.pid()));
                    io.delayq.backlog.QueueStats st = client.stats();
                    if (st.due() + st.inflight() == 0) {
                        break;
                    }
                    Pause.millis(100);
                }
            }
            String row = String.format("| %d | %.0f ms | %,d MB | %,d MB |%n", run, readyMs, idleRss / 1024, peak / 1024);
            System.out.print("  footprint " + row);
            return row;
        } finally {
            p.destroy();
            p.waitFor();
        }
    }

    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (java.io.IOException e) {
            return -1;
        }
        return -1;
    }

    /** The node receiver (bench/webhook/receiver.js) as a child process. */
    static final class Receiver implements AutoCloseable {
        private final Process process;
        private final int port;
        private final HttpClient http = HttpClient.newHttpClient();

        Receiver(Path script, int delayMs) throws Exception {
            process = new ProcessBuilder("node", script.toString(), String.valueOf(delayMs)).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("listening ")) {
                throw new IllegalStateException("webhook receiver did not start: " + line);
            }
            port = Integer.parseInt(line.substring("listening ".length()).trim());
        }

        String url() {
            return "http://127.0.0.1:" + port + "/hook";
        }

        Map<String, Double> stats() throws Exception {
            String body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/stats")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Map<String, Double> m = new HashMap<>();
            for (String part : body.replaceAll("[{}\"]", "").split(",")) {
                String[] kv = part.split(":");
                m.put(kv[0], Double.parseDouble(kv[1]));
            }
            return m;
        }

        double count() throws Exception {
            return Double.parseDouble(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/count")).build(),
                    HttpResponse.BodyHandlers.ofString()).body().trim());
        }

        @Override
        public void close() {
            process.destroy();
        }
    }
}
