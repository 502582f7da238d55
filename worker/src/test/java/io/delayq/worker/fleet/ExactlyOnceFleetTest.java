package io.delayq.worker.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Without failures, a fleet of competing workers handles every task exactly once. */
class ExactlyOnceFleetTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void fourWorkersSixteenShardsFiftyThousandTasksEachHandledOnce() {
        int tasks = 50_000;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("fleet").shards(16).build();
             Fleet fleet = new Fleet()) {
            Map<String, String> env = Fleet.env(redis.url(), "fleet", 16);
            env.put("DELAYQ_CONCURRENCY", "32");
            env.put("DELAYQ_BATCH_SIZE", "200");
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            // every worker owns all 16 shards: they compete for the same tasks
            for (int i = 0; i < 4; i++) {
                fleet.start(env, fleet.recorder());
            }
            List<TaskSpec> specs = new ArrayList<>(tasks);
            for (int i = 0; i < tasks; i++) {
                // half due at once, half spread over the next two seconds
                TaskSpec t = TaskSpec.of("task-" + i).payload("p" + i);
                specs.add(i % 2 == 0 ? t : t.after(Duration.ofMillis(i % 2000)));
            }
            assertThat(client.enqueueAll(specs)).allMatch(r -> r.added());

            await().atMost(Duration.ofMinutes(2)).until(() -> fleet.countById.size() == tasks
                    && client.stats().inflight() == 0);

            assertThat(fleet.deliveries).hasSize(tasks);
            assertThat(fleet.countById.values()).allMatch(c -> c == 1);
            assertThat(fleet.deliveries).allMatch(d -> d.attempt() == 1);
            assertThat(fleet.deliveries).allMatch(d -> d.payload().equals("p" + d.id().substring(5)));
            var stats = client.stats();
            assertThat(stats.scheduled() + stats.due() + stats.inflight() + stats.dead()).isZero();
        }
    }
}
