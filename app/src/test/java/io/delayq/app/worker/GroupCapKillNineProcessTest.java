package io.delayq.app.worker;

import io.delayq.client.DelayQueueClient;
import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Groups capped at N running, worker JVMs delivering to a real webhook: the first is killed with SIGKILL while it holds
 * permits (the receiver is working on its requests), two more take over. The receiver, which counts the requests of
 * each group it is working on, never sees more than the cap; the killed worker's permits come back when they expire
 * (its tasks are re-delivered, the groups go on), every task is delivered and no permit is left taken.
 */
class GroupCapKillNineProcessTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Map<String, Integer> CAPS = Map.of("acct", 2, "sync", 2, "payout", 1);

    @Test
    void theCapHoldsThroughAKilledWorkerAndItsPermitsComeBack() throws Exception {
        int perGroup = 150;
        try (WebhookReceiver receiver = new WebhookReceiver(100);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("cap").shards(8).build();
             RedisClient lettuce = RedisClient.create(redis.url());
             StatefulRedisConnection<String, String> raw = lettuce.connect()) {
            Map<String, String> env = receiver.workerEnv(redis.url(), "cap", 8);
            env.put("DELAYQ_CONCURRENCY", "16");
            env.put("DELAYQ_LEASE", "2s");
            env.put("DELAYQ_GROUP_MAX_RUNNING", "2");
            env.put("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "payout=1");
            List<TaskSpec> specs = new ArrayList<>();
            for (int i = 0; i < perGroup; i++) {
                for (String group : CAPS.keySet()) {
                    // the payload names the group: the receiver counts running requests by payload
                    specs.add(TaskSpec.of(group + "-" + i).group(group).payload(group));
                }
            }
            client.enqueueAll(specs);
            // the victim works alone and dies holding permits: the requests the receiver is working on are its own
            try (WorkerProcess victim = WorkerProcess.start(env)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> receiver.countById.size() >= 30
                        && receiver.runningByPayload.getOrDefault("acct", new AtomicInteger()).get() > 0);
                victim.kill9();
            }
            int deliveredByTheVictim = receiver.deliveries.size();
            try (WorkerProcess second = WorkerProcess.start(env); WorkerProcess third = WorkerProcess.start(env)) {
                await().atMost(Duration.ofSeconds(180)).until(() -> {
                    var s = client.stats();
                    return receiver.countById.size() == specs.size() && s.inflight() + s.due() + s.scheduled() == 0;
                });
                assertThat(receiver.deliveries.size()).as("the victim's tasks in flight were delivered again after their lease")
                        .isGreaterThan(specs.size());
                assertThat(second.terminate()).as("graceful exit code").isZero();
                assertThat(third.terminate()).as("graceful exit code").isZero();
            }
            assertThat(deliveredByTheVictim).isLessThan(specs.size());
            CAPS.forEach((group, cap) -> assertThat(receiver.mostByPayload.get(group))
                    .as("most %s requests worked on at once (cap %d)", group, cap).isBetween(1, cap));
            // the cap, not a lack of work, limited them: acct reached its cap
            assertThat(receiver.mostByPayload.get("acct")).isEqualTo(2);
            // every permit came back: the survivors' as their tasks settled, the victim's as they expired
            await().atMost(Duration.ofSeconds(15)).until(() -> CAPS.keySet().stream()
                    .mapToLong(g -> raw.sync().zcard(ShardKeys.running("cap", g))).sum() == 0);
            assertThat(client.stats().dead()).isZero();
            System.out.printf("group caps through kill -9: %d tasks, %d deliveries, most running %s%n",
                    receiver.countById.size(), receiver.deliveries.size(), receiver.mostByPayload);
        }
    }
}
