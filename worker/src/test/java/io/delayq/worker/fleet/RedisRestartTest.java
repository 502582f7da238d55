package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/** Redis restarted under a running worker (scripts and data gone): it reconnects, reloads scripts and carries on. */
class RedisRestartTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void workerCarriesOnAfterRedisRestart() {
        try (Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "restart", 4);
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            Worker worker = fleet.start(env, fleet.recorder());
            try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("restart").shards(4).build()) {
                client.enqueue(TaskSpec.of("before"));
                await().atMost(Duration.ofSeconds(10)).until(() -> fleet.countById.containsKey("before"));
            }

            redis.server().restart();

            try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("restart").shards(4).build()) {
                for (int i = 0; i < 20; i++) {
                    client.enqueue(TaskSpec.of("after-" + i).after(Duration.ofMillis(50L * i)));
                }
                await().atMost(Duration.ofSeconds(30)).until(() ->
                        fleet.countById.keySet().stream().filter(id -> id.startsWith("after-")).count() == 20
                                && client.stats().inflight() == 0);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> worker.registry().find("delayq.tasks")
                    .tag("outcome", "acked").counter().count() == 21);
        }
    }
}
