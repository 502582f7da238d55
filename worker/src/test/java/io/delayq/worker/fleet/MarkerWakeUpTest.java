package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With a 30 s poll interval, a task enqueued while the worker sleeps still fires within seconds:
 * the enqueue script's marker wakes the worker. Without it the task would wait for the next poll.
 */
class MarkerWakeUpTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void aTaskDueSoonWakesASleepingWorker() {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("wake").shards(4).build();
             Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "wake", 4);
            env.put("DELAYQ_POLL_INTERVAL", "30s");
            Worker worker = fleet.start(env, fleet.recorder());
            // the worker has claimed every shard once (found nothing) and now sleeps for the poll interval
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    worker.registry().find("delayq.claim.batch.size").summary().count() >= 4);

            long enqueued = System.currentTimeMillis();
            client.enqueue(TaskSpec.of("wake-me").after(Duration.ofMillis(100)));

            await().atMost(Duration.ofSeconds(5)).until(() -> fleet.countById.containsKey("wake-me"));
            Fleet.Delivered d = fleet.deliveries.peek();
            assertThat(d.handledAtMillis()).isGreaterThanOrEqualTo(d.dueAt());
            assertThat(d.handledAtMillis() - enqueued).isLessThan(Duration.ofSeconds(5).toMillis());
        }
    }

    @Test
    void aTaskEnqueuedEarlierThanTheKnownNextDueTimeFiresAtItsOwnTime() {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("wake").shards(1).build();
             Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "wake", 1);
            env.put("DELAYQ_POLL_INTERVAL", "30s");
            client.enqueue(TaskSpec.of("late").after(Duration.ofSeconds(25)));
            Worker worker = fleet.start(env, fleet.recorder());
            await().atMost(Duration.ofSeconds(10)).until(() ->
                    worker.registry().find("delayq.claim.batch.size").summary().count() >= 1);
            // the worker now sleeps until "late" is due; "soon" must not wait for it
            client.enqueue(TaskSpec.of("soon").after(Duration.ofMillis(200)));
            await().atMost(Duration.ofSeconds(5)).until(() -> fleet.countById.containsKey("soon"));
            assertThat(fleet.countById).doesNotContainKey("late");
        }
    }
}
