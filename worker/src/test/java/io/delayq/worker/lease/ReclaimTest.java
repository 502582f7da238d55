package io.delayq.worker.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.Worker;
import io.delayq.worker.dispatch.RunningWorkers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

import static io.delayq.worker.dispatch.RunningWorkers.reclaimed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Expired leases are recovered by any live worker, also on shards it does not own: a shard whose
 * workers all died still gets its in-flight tasks back (or dead-lettered once out of attempts).
 */
class ReclaimTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "orphans";
    private final Set<String> handled = ConcurrentHashMap.newKeySet();
    private final TestQueue queue = TestQueue.eachTest(redis, Q, 4);
    @RegisterExtension
    final RunningWorkers workers = RunningWorkers.on(queue);

    /** An id on shard 3, claimed by a "worker" that then dies (never acks). */
    private String orphanOnShard3() {
        String id = IntStream.range(0, 1000).mapToObj(i -> "orphan-" + i).filter(s -> queue.shardOf(s) == 3).findFirst().orElseThrow();
        queue.client().enqueue(TaskSpec.of(id));
        ClaimBatch batch = queue.claim(3, 10, Duration.ofMillis(200));
        assertThat(batch.tasks()).extracting(t -> t.id()).containsExactly(id);
        return id;
    }

    private Worker workerOnShards0To1(String maxAttempts) {
        Map<String, String> env = RunningWorkers.env(redis.url(), Q, 4);
        env.put("DELAYQ_SHARD_FROM", "0");
        env.put("DELAYQ_SHARD_TO", "1");
        env.put("DELAYQ_LEASE", "400ms");
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", maxAttempts);
        return workers.startHandler(env, task -> handled.add(task.id()));
    }

    @Test
    void anExpiredLeaseOnAShardTheWorkerDoesNotOwnGoesBackToDue() {
        String id = orphanOnShard3();
        Worker w = workerOnShards0To1("5");

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect(id).state() == TaskInfo.State.SCHEDULED);
        TaskInfo back = queue.client().inspect(id);
        assertThat(back.attempts()).isEqualTo(1);
        assertThat(back.lastError()).isEqualTo("lease expired on attempt 1");
        assertThat(back.overdue()).as("due again at once").isTrue();
        // the counter moves right after the script answered
        await().atMost(Duration.ofSeconds(5)).until(() -> reclaimed(w, "requeued") == 1);
        assertThat(handled).as("shard 3 is not this worker's to handle").isEmpty();
    }

    @Test
    void anExpiredLeaseOnItsLastAttemptIsDeadLettered() {
        String id = orphanOnShard3();
        Worker w = workerOnShards0To1("1");

        await().atMost(Duration.ofSeconds(10)).until(() -> queue.client().inspect(id).state() == TaskInfo.State.DEAD);
        assertThat(queue.client().inspect(id).lastError()).isEqualTo("lease expired on attempt 1 (worker died or stalled)");
        await().atMost(Duration.ofSeconds(5)).until(() -> reclaimed(w, "dead") == 1);
    }
}
