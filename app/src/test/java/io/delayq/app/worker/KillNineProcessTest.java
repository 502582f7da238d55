package io.delayq.app.worker;

import io.delayq.worker.fleet.Fleet;
import io.delayq.client.DelayQueueClient;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two worker JVMs deliver to a real webhook; one is killed with SIGKILL mid-batch. Every task still
 * completes, and every duplicate delivery is a re-delivery after the lease expired (attempt > 1).
 */
class KillNineProcessTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @Test
    void killedWorkerLosesNothingAndDuplicatesCarryAHigherAttempt() throws Exception {
        int tasks = 2000;
        try (WebhookReceiver receiver = new WebhookReceiver(20);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("kill").shards(8).build()) {
            Map<String, String> env = receiver.workerEnv(redis.url(), "kill", 8);
            env.put("DELAYQ_CONCURRENCY", "16");
            env.put("DELAYQ_LEASE", "2s");
            env.put("DELAYQ_POLL_INTERVAL", "200ms");
            try (WorkerProcess victim = WorkerProcess.start(env); WorkerProcess survivor = WorkerProcess.start(env)) {
                List<TaskSpec> specs = new ArrayList<>();
                for (int i = 0; i < tasks; i++) {
                    specs.add(TaskSpec.of("k-" + i).payload("n" + i));
                }
                client.enqueueAll(specs);
                await().atMost(Duration.ofSeconds(60)).until(() -> receiver.countById.size() >= tasks / 4);
                assertThat(client.stats().inflight()).as("tasks in flight when the worker dies").isPositive();

                victim.kill9();

                await().atMost(Duration.ofSeconds(120)).until(() -> {
                    var s = client.stats();
                    return receiver.countById.size() == tasks && s.inflight() + s.due() + s.scheduled() == 0;
                });
                assertThat(survivor.terminate()).as("graceful exit code").isZero();
            }
            Map<String, List<Fleet.Delivered>> byId = receiver.deliveries.stream().collect(Collectors.groupingBy(Fleet.Delivered::id));
            assertThat(byId).hasSize(tasks);
            for (List<Fleet.Delivered> ds : byId.values()) {
                // a re-delivery always carries a higher attempt, never a repeat (attempt 1 may be missing:
                // the victim claimed it and died before sending it)
                assertThat(ds.stream().map(Fleet.Delivered::attempt).toList()).doesNotHaveDuplicates();
            }
            assertThat(client.stats().dead()).isZero();
            long duplicates = byId.values().stream().filter(ds -> ds.size() > 1).count();
            System.out.printf("kill -9: %d tasks, %d deliveries, %d ids delivered more than once (all with attempt > 1)%n",
                    tasks, receiver.deliveries.size(), duplicates);
        }
    }
}
