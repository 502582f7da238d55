package io.delayq.delivery.kafka;

import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.Deliveries;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.delayq.settings.WorkerSettings.*;
import static io.delayq.worker.dispatch.RunningWorkers.outcomes;
import static org.awaitility.Awaitility.await;

/**
 * Kafka hand-off throughput, printed, not asserted (docs/bench.md, "Kafka delivery"): one worker (16 shards) on a real
 * redis-server producing to a real single-node KRaft broker on loopback, the stream hand-off beside it in the same run.
 * Not part of the test suite (no *Test name):
 * {@code mvn -o -q -pl delivery-kafka -am test -Dsurefire.failIfNoSpecifiedTests=false -Dtest=KafkaThroughputBenchmark}
 */
class KafkaThroughputBenchmark {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();
    @RegisterExtension
    static KafkaBroker kafka = new KafkaBroker();

    private static final int SHARDS = 16;
    private static final int BACKLOG = 20_000;
    private static final int RATE = 3_000;
    private static final int SECONDS = 10;
    private int runs;

    @Test
    void throughputAndLag() throws Exception {
        Map<String, String> stream = Map.of(DELIVERY.name(), "stream");
        Map<String, String> kafkaDefaults = Map.of(DELIVERY.name(), "kafka");
        backlog(stream); // unrecorded: the JIT compiler's warm-up
        backlog(kafkaDefaults);

        List<String> rows = new ArrayList<>();
        for (var setting : List.of(
                Map.entry("stream hand-off (reference)", stream),
                Map.entry("kafka, defaults (DELAYQ_CONCURRENCY=256)", kafkaDefaults),
                Map.entry("kafka, DELAYQ_CONCURRENCY=16", Map.of(DELIVERY.name(), "kafka", CONCURRENCY.name(), "16")),
                Map.entry("kafka, defaults + DELAYQ_KAFKA_COMPRESSION=lz4", Map.of(DELIVERY.name(), "kafka", KAFKA_COMPRESSION.name(), "lz4")))) {
            Run backlog = backlog(setting.getValue());
            Run steady = steady(setting.getValue());
            rows.add(String.format("| %s | %,.0f | %,.0f | %s | %d |", setting.getKey(), backlog.perSecond, steady.perSecond,
                    steady.lag, backlog.lost + steady.lost));
        }
        System.out.println("KAFKA-BENCH | settings | backlog of " + BACKLOG + ": deliveries / s | " + RATE + " tasks/s for " + SECONDS
                + " s: deliveries / s | lag p50 / p99 / max ms | lost |");
        rows.forEach(r -> System.out.println("KAFKA-BENCH " + r));
    }

    record Run(double perSecond, String lag, int lost) {
    }

    /** {@link #BACKLOG} tasks due already when the worker starts: deliveries per second until the last is acked. */
    private Run backlog(Map<String, String> setting) throws Exception {
        return run(setting, BACKLOG, false);
    }

    /** {@link #RATE} tasks a second, due from 2 s after the worker started, for {@link #SECONDS} s. */
    private Run steady(Map<String, String> setting) throws Exception {
        return run(setting, RATE * SECONDS, true);
    }

    /** Deliveries per second from the worker's start (a backlog) or the first due time (spread) to the last ack. */
    private Run run(Map<String, String> setting, int n, boolean spread) throws Exception {
        int run = ++runs;
        String q = "bench" + run;
        String topic = "bench." + run;
        boolean toKafka = "kafka".equals(setting.get(DELIVERY.name()));
        if (toKafka) {
            kafka.createTopic(topic, 3);
        }
        Map<String, String> env = RunningWorkers.env(redis.url(), q, SHARDS);
        // the worker's own defaults, not the test suite's small ones
        env.remove(CONCURRENCY.name());
        env.remove(LEASE.name());
        env.put(RETRY_MAX_ATTEMPTS.name(), "1000");
        env.put(KAFKA_BOOTSTRAP_SERVERS.name(), kafka.bootstrapServers());
        env.put(KAFKA_TOPIC.name(), topic);
        env.put(STREAM_KEY.name(), "bench:ready:" + run);
        env.putAll(setting);
        try (TestQueue queue = TestQueue.open(redis.url(), q, SHARDS);
             TopicReader reader = toKafka ? new TopicReader(kafka.bootstrapServers(), topic) : null) {
            long base = queue.serverNow() + (spread ? 2000 : -1000);
            List<TaskSpec> tasks = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long at = spread ? base + i * 1000L / RATE : base;
                tasks.add(TaskSpec.of("t-" + i).at(Instant.ofEpochMilli(at)).payload("{\"order\":" + i + "}"));
            }
            for (int from = 0; from < n; from += 1000) {
                queue.client().enqueueAll(tasks.subList(from, Math.min(n, from + 1000)));
            }
            WorkerConfig config = WorkerConfig.fromEnv(env);
            long start = queue.serverNow();
            try (Worker w = Worker.start(config, Deliveries.forConfig(config))) {
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(10)).until(() -> outcomes(w, "acked") >= n);
                double seconds = (queue.serverNow() - (spread ? base : start)) / 1000.0;
                int lost = 0;
                String lag = "–";
                if (reader != null) {
                    await().atMost(Duration.ofSeconds(60)).until(() -> reader.keys() >= n);
                    lost = n - reader.keys();
                    if (spread) {
                        long[] lags = reader.all().stream().mapToLong(r -> r.timestamp() - Long.parseLong(r.header(Headers.DUE_AT))).sorted().toArray();
                        lag = lags[lags.length / 2] + " / " + lags[(int) (lags.length * 0.99)] + " / " + lags[lags.length - 1];
                    }
                } else {
                    lost = (int) (n - TestQueue.get(queue.redis().xlen("bench:ready:" + run)));
                }
                return new Run(n / seconds, lag, Math.max(0, lost));
            }
        }
    }
}
