package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What tracing costs the worker on W1 (100,000 tasks already due, drained by one worker: 4 shards,
 * DELAYQ_BATCH_SIZE=1000, DELAYQ_CONCURRENCY=1000, a no-op handler, as bench/run.sh's delayq row). Three
 * variants, interleaved round by round on one Redis so that the ratios compare like with like:
 * <ul>
 *   <li>off: no SDK, records without trace context (the compact form): the default;</li>
 *   <li>off + context: no SDK, every record carries a traceparent (JSON form), which the worker only
 *       forwards;</li>
 *   <li>on: an SDK with the batch span processor (the OTLP set-up minus the network: its exporter counts and
 *       drops), every record with a traceparent, one span per delivery.</li>
 * </ul>
 * Prints tasks/s per round and each variant's median beside "off"; no pass or fail. Usage:
 * <pre>
 *   bench/tracing.sh [--tasks 100000] [--rounds 3]
 * </pre>
 */
public final class TracingBench {
    private static final String QUEUE = "w1";
    private static final int SHARDS = 4;
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    enum Variant { OFF, OFF_WITH_CONTEXT, ON }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int tasks = 100_000;
        int rounds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tasks" -> tasks = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (see io.delayq.bench.TracingBench)");
            }
        }
        System.out.printf("tracing cost on W1: %,d due tasks drained by one worker (%d shards, batch 1000, concurrency 1000), "
                + "%d round(s) of each variant, interleaved; %d cores, Java %s%n", tasks, SHARDS, rounds,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        Map<Variant, List<Double>> rates = new HashMap<>();
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no")) {
            System.out.println("redis: " + server.origin());
            // one warm-up drain (JIT, connections) that is not counted
            drain(server.url(), Variant.ON, Math.min(tasks, 20_000));
            drain(server.url(), Variant.OFF, Math.min(tasks, 20_000));
            for (int r = 1; r <= rounds; r++) {
                for (Variant v : Variant.values()) {
                    Result result = drain(server.url(), v, tasks);
                    rates.computeIfAbsent(v, k -> new ArrayList<>()).add(result.tasksPerSecond());
                    System.out.printf("round %d  %-17s %,10.0f tasks/s%s%n", r, label(v), result.tasksPerSecond(),
                            v == Variant.ON ? String.format("  (%,d spans reached the exporter)", result.spans()) : "");
                }
            }
        }
        double off = median(rates.get(Variant.OFF));
        System.out.println();
        System.out.printf("%-17s %14s %12s%n", "variant", "median tasks/s", "vs off");
        for (Variant v : Variant.values()) {
            double m = median(rates.get(v));
            System.out.printf("%-17s %,14.0f %11.2f%n", label(v), m, m / off);
        }
    }

    private static String label(Variant v) {
        return switch (v) {
            case OFF -> "off";
            case OFF_WITH_CONTEXT -> "off + context";
            case ON -> "on (SDK, batch)";
        };
    }

    record Result(double tasksPerSecond, long spans) {
    }

    private static Result drain(String url, Variant variant, int n) throws Exception {
        try (RedisProbe probe = new RedisProbe(url)) {
            probe.flushAll(); // a fresh queue per drain
        }
        CountingExporter exporter = new CountingExporter();
        OpenTelemetrySdk sdk = variant == Variant.ON ? OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(BatchSpanProcessor.builder(exporter).build()).build())
                .build() : null;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(url).queue(QUEUE).shards(SHARDS).build()) {
            List<TaskSpec> chunk = new ArrayList<>(10_000);
            for (int i = 0; i < n; i++) {
                TaskSpec t = TaskSpec.of("t-" + i).payload("x");
                chunk.add(variant == Variant.OFF ? t : t.traceContext(TRACEPARENT, null));
                if (chunk.size() == 10_000 || i == n - 1) {
                    client.enqueueAll(chunk);
                    chunk.clear();
                }
            }
            AtomicLong handled = new AtomicLong();
            AtomicLong first = new AtomicLong();
            Map<String, String> env = WorkerEnv.of(url, QUEUE, SHARDS).set(WorkerSettings.BATCH_SIZE, 1000).set(WorkerSettings.CONCURRENCY, 1000)
                    .set(WorkerSettings.HTTP_PORT, 0).set(WorkerSettings.SCHEDULE_INTERVAL, Duration.ZERO).toMap();
            // timed from the first delivery to the last ack: the worker's start-up (connect, load scripts) is not W1
            Worker w = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(task -> {
                        if (handled.getAndIncrement() == 0) {
                            first.set(System.nanoTime());
                        }
                    }),
                    System::currentTimeMillis, sdk == null ? OpenTelemetry.noop() : sdk);
            long elapsed;
            try {
                while (handled.get() < n || client.stats().inflight() > 0) {
                    Thread.sleep(2);
                }
                elapsed = System.nanoTime() - first.get();
            } finally {
                w.close();
                if (sdk != null) {
                    sdk.shutdown().join(10, TimeUnit.SECONDS);
                }
            }
            return new Result(n / (elapsed / 1e9), exporter.count.get());
        }
    }

    private static double median(List<Double> xs) {
        List<Double> sorted = new ArrayList<>(xs);
        sorted.sort(Double::compare);
        int m = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(m) : (sorted.get(m - 1) + sorted.get(m)) / 2;
    }

    /** The exporter end of an OTLP set-up without the network: counts what the batch processor hands it. */
    private static final class CountingExporter implements SpanExporter {
        final AtomicLong count = new AtomicLong();

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            count.addAndGet(spans.size());
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
