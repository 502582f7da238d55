package io.delayq.worker.dispatch;

import io.delayq.shard.ShardKeys;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * DELAYQ_GROUP_MAX_RUNNING across several workers: no group ever has more tasks running than its cap, counted where
 * the handlers run; every group's tasks all run (none starved while another holds its slots); no permit is left
 * taken once everything settled; a handler that outlives its first lease keeps its permit.
 */
class GroupCapWorkerTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "capped";
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    /** Running handlers per group, and the most seen at once. */
    private final Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> most = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();

    private void run(String id, long millis) throws InterruptedException {
        String group = id.replaceAll("-.*", "");
        int now = running.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
        most.merge(group, now, Math::max);
        try {
            Thread.sleep(millis);
        } finally {
            running.get(group).decrementAndGet();
            handled.computeIfAbsent(group, g -> new AtomicInteger()).incrementAndGet();
        }
    }

    private Map<String, String> env(int concurrency) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_CONCURRENCY", String.valueOf(concurrency));
        return env;
    }

    private long permitsTaken(String group) {
        return sync(queue.redis().zcard(ShardKeys.running(Q, group)));
    }

    @Test
    void threeWorkersNeverRunMoreOfAGroupThanItsCapAndEveryGroupIsServed() {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            tasks.add(TaskSpec.of("acct-" + i).group("acct"));
            tasks.add(TaskSpec.of("sync-" + i).group("sync"));
        }
        for (int i = 0; i < 20; i++) {
            tasks.add(TaskSpec.of("payout-" + i).group("payout"));
        }
        for (int i = 0; i < 60; i++) {
            tasks.add(TaskSpec.of("plain-" + i));
        }
        queue.client().enqueueAll(tasks);
        Map<String, String> env = env(16);
        env.put("DELAYQ_GROUP_MAX_RUNNING", "3");
        env.put("DELAYQ_GROUP_MAX_RUNNING_OVERRIDES", "payout=1");
        for (int w = 0; w < 3; w++) {
            workers.startHandler(env, task -> run(task.id(), 15));
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                handled.values().stream().mapToInt(AtomicInteger::get).sum() == tasks.size());
        assertThat(handled.get("acct")).hasValue(120);
        assertThat(handled.get("sync")).hasValue(120);
        assertThat(handled.get("payout")).hasValue(20);
        assertThat(most.get("acct")).as("most acct tasks running at once").isBetween(1, 3);
        assertThat(most.get("sync")).as("most sync tasks running at once").isBetween(1, 3);
        assertThat(most.get("payout")).as("payouts run one at a time").isEqualTo(1);
        // the cap is what limited them: 48 slots across the workers, yet a capped group reached its cap and no more
        assertThat(most.get("acct") + most.get("sync")).isGreaterThan(2);
        assertThat(most.get("plain")).as("ungrouped tasks are not capped").isGreaterThan(3);
        // every permit went back as its task settled
        await().atMost(Duration.ofSeconds(10)).until(() ->
                Set.of("acct", "sync", "payout").stream().mapToLong(this::permitsTaken).sum() == 0);
    }

    @Test
    void aHandlerThatOutlivesItsFirstLeaseKeepsItsPermit() {
        // lease 600 ms: a permit lasts lease + 2 s unless extended, and each handler runs 3.5 s
        queue.client().enqueueAll(List.of(TaskSpec.of("slow-1").group("slow"), TaskSpec.of("slow-2").group("slow")));
        Map<String, String> env = env(4);
        env.put("DELAYQ_LEASE", "600ms");
        env.put("DELAYQ_GROUP_MAX_RUNNING", "1");
        Worker a = workers.startHandler(env, task -> run(task.id(), 3_500));
        Worker b = workers.startHandler(env, task -> run(task.id(), 3_500));
        await().atMost(Duration.ofSeconds(30)).until(() -> handled.containsKey("slow") && handled.get("slow").get() == 2);
        assertThat(most.get("slow")).isEqualTo(1);
        assertThat(a).isNotNull();
        assertThat(b).isNotNull();
    }
}
