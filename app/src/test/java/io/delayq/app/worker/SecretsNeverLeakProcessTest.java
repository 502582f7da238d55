package io.delayq.app.worker;

import io.delayq.worker.fleet.Fleet;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.TaskSpec;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker process given a Redis password and a webhook signing secret, through a run with
 * successes, retries and a Redis outage: neither secret appears in its logs, its /metrics, or
 * anything it wrote to Redis (task errors, records, dead letters).
 */
class SecretsNeverLeakProcessTest {
    private static final String REDIS_PASSWORD = "s3cr3t-redis-pw-7f1c";
    private static final String WEBHOOK_SECRET = "s3cr3t-hmac-key-9b2e";

    @Test
    void noSecretInLogsMetricsOrRedis() throws Exception {
        try (LocalRedisServer redis = LocalRedisServer.start("--requirepass", REDIS_PASSWORD);
             WebhookReceiver receiver = new WebhookReceiver(0)) {
            String authedUrl = "redis://:" + REDIS_PASSWORD + "@127.0.0.1:" + redis.port();
            int httpPort = LocalRedisServer.freePort();
            Map<String, String> env = Fleet.env(redis.url(), "secrets", 2);
            env.put("DELAYQ_REDIS_PASSWORD", REDIS_PASSWORD);
            env.put("DELAYQ_DELIVERY", "webhook");
            env.put("DELAYQ_WEBHOOK_URL", receiver.url());
            env.put("DELAYQ_WEBHOOK_SECRET", WEBHOOK_SECRET);
            env.put("DELAYQ_HTTP_PORT", String.valueOf(httpPort));
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            try (DelayQueueClient client = DelayQueueClient.builder().redis(authedUrl).queue("secrets").shards(2).build();
                 WorkerProcess worker = WorkerProcess.start(env)) {
                for (int i = 0; i < 20; i++) {
                    client.enqueue(TaskSpec.of("t-" + i).payload("p" + i));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> receiver.countById.size() == 20);
                // an outage makes the worker log its "Redis lost" / "Redis is back" lines
                redis.pause();
                await().atMost(Duration.ofSeconds(30)).until(() -> worker.output().contains("Redis lost"));
                redis.resume();
                await().atMost(Duration.ofSeconds(30)).until(() -> worker.output().contains("Redis is back"));

                String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + httpPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
                assertThat(metrics).contains("delayq_tasks_total");
                assertThat(worker.terminate()).isZero();

                String everything = worker.output() + metrics + String.join("\n",
                        client.redis().commands().keys("*").get().stream().map(k -> k + dump(client, k)).toList());
                assertThat(worker.output()).contains("delayq worker started");
                assertThat(everything).doesNotContain(REDIS_PASSWORD).doesNotContain(WEBHOOK_SECRET);
            }
        }
    }

    private static String dump(DelayQueueClient client, String key) {
        try {
            var redis = client.redis().commands();
            return switch (redis.type(key).get()) {
                case "hash" -> redis.hgetall(key).get().toString();
                case "string" -> redis.get(key).get();
                case "zset" -> redis.zrange(key, 0, -1).get().toString();
                default -> "";
            };
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
