package io.delayq.app.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A worker process whose clock is an hour fast (DELAYQ_CLOCK_SKEW=1h) fires nothing early. */
class ClockSkewProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void anHourFastWorkerProcessFiresNothingEarly() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver(0);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("skewp").shards(4).build()) {
            Map<String, String> env = receiver.workerEnv(redis.url(), "skewp", 4);
            env.put("DELAYQ_CLOCK_SKEW", "1h");
            try (WorkerProcess worker = WorkerProcess.start(env)) {
                for (int i = 0; i < 20; i++) {
                    client.enqueue(TaskSpec.of("p-" + i).after(Duration.ofMillis(200L * (i + 1))));
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> receiver.countById.size() == 20);
                assertThat(worker.terminate()).isZero();
            }
            assertThat(receiver.deliveries).allSatisfy(d -> assertThat(d.handledAtMillis()).isGreaterThanOrEqualTo(d.dueAt()));
        }
    }
}
