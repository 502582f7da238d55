package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A graceful stop finishes what is running, acks it, claims nothing new and strands nothing in flight. */
class GracefulShutdownTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void inFlightTasksFinishAndTheRestStayQueued() throws Exception {
        int tasks = 40;
        CountDownLatch release = new CountDownLatch(1);
        Set<String> started = ConcurrentHashMap.newKeySet();
        Set<String> finished = ConcurrentHashMap.newKeySet();
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("graceful").shards(2).build();
             Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "graceful", 2);
            env.put("DELAYQ_CONCURRENCY", "4");
            env.put("DELAYQ_BATCH_SIZE", "10");
            Worker worker = fleet.start(env, task -> {
                started.add(task.id());
                release.await(30, TimeUnit.SECONDS);
                finished.add(task.id());
            });
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                specs.add(TaskSpec.of("g-" + i));
            }
            client.enqueueAll(specs);
            await().atMost(Duration.ofSeconds(10)).until(() -> started.size() == 4);
            assertThat(client.stats().inflight()).isEqualTo(4);

            Thread stopper = new Thread(() -> worker.shutdown(Duration.ofSeconds(20)));
            stopper.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> !worker.ready());
            // shutdown waits for the running handlers; let them finish now
            release.countDown();
            stopper.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(stopper.isAlive()).isFalse();

            assertThat(finished).isEqualTo(started).hasSize(4);
            var stats = client.stats();
            assertThat(stats.inflight()).isZero();
            assertThat(stats.due()).isEqualTo(tasks - 4);
            for (String id : started) {
                assertThat(client.inspect(id).state()).isEqualTo(TaskInfo.State.UNKNOWN);
            }
        }
    }
}
