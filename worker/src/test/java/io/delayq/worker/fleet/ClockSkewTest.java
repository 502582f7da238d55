package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker whose wall clock runs an hour fast (or slow) fires nothing early and nothing an hour
 * late: due is decided by the Redis server's clock. (The process-level twin, with the skew injected
 * through DELAYQ_CLOCK_SKEW into a separate JVM, is ClockSkewProcessTest.)
 */
class ClockSkewTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void anHourFastWorkerFiresNothingEarly() {
        runWithSkew(Duration.ofHours(1).toMillis());
    }

    @Test
    void anHourSlowWorkerFiresOnTime() {
        runWithSkew(-Duration.ofHours(1).toMillis());
    }

    private void runWithSkew(long skewMillis) {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("skew").shards(2).build();
             Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "skew", 2);
            env.put("DELAYQ_POLL_INTERVAL", "1s");
            fleet.start(env, fleet.recorder(), () -> System.currentTimeMillis() + skewMillis);
            for (int i = 0; i < 10; i++) {
                client.enqueue(TaskSpec.of("s-" + i).after(Duration.ofMillis(300L * (i + 1))));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> fleet.countById.size() == 10);
            // handledAt is read from the test's real clock; dueAt was computed by the Redis server on this machine
            assertThat(fleet.deliveries).allSatisfy(d -> assertThat(d.handledAtMillis()).isGreaterThanOrEqualTo(d.dueAt()));
            assertThat(fleet.deliveries).allSatisfy(d -> assertThat(d.handledAtMillis() - d.dueAt()).isLessThan(5_000));
        }
    }
}
