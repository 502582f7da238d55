package io.delayq.worker.lease;

import io.delayq.claim.ClaimBatch;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.shard.ShardRange;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.worker.dispatch.CommandCounts;
import io.delayq.worker.metrics.WorkerMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lease sweep over a standalone Redis asks which in-flight sets exist with one EXISTS per group of shards (counted
 * with INFO commandstats on a real redis-server), so its round no longer grows with the shard count, and it still
 * recovers an expired lease on any shard, also past a shard whose in-flight key has the wrong type.
 */
class ReclaimerSweepTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final int SHARDS = 600;
    @RegisterExtension
    final TestQueue queue = TestQueue.eachTest(redis, "sweep", SHARDS);

    private Reclaimer reclaimer(boolean cluster) {
        return new Reclaimer(queue.protocol(), queue.redis(), cluster, 5, DeadLetterPolicy.DEFAULT,
                new WorkerMetrics(new SimpleMeterRegistry(), "sweep", ShardRange.all(SHARDS)), Duration.ofSeconds(30));
    }

    /** EXISTS calls of an idle sweep over 600 shards: protocol 2 asks for one key a shard, 256 keys a call. */
    long idleSweepExists() {
        return 3;
    }

    @Test
    void anIdleSweepCostsOneExistsPerGroupOfShardsAndStillRecoversAnExpiredLease() {
        Reclaimer sweep = reclaimer(false);
        assertThat(sweep.interval()).as("lease / 2, whatever the shard count").isEqualTo(Duration.ofSeconds(15));
        assertThat(reclaimer(true).interval()).as("on a Cluster: one command per shard, 20 shards a second")
                .isEqualTo(Duration.ofSeconds(30));

        Map<String, Long> before = CommandCounts.of(queue.redis());
        sweep.run();
        Map<String, Long> after = CommandCounts.of(queue.redis());
        assertThat(after.getOrDefault("exists", 0L) - before.getOrDefault("exists", 0L)).isEqualTo(idleSweepExists());
        assertThat(CommandCounts.delta(before, after)).as("commands of an idle sweep over %d shards: %s", SHARDS, after)
                .isEqualTo(idleSweepExists());

        // shard 10's in-flight key has the wrong type; shard 500 holds an expired lease
        TestQueue.get(queue.redis().set(queue.keys(10).inflight(), "not a sorted set"));
        recoversAnExpiredLeaseOn(500, sweep);
    }

    @Test
    void aClusterSweepAsksShardByShardAndRecoversAnExpiredLease() {
        recoversAnExpiredLeaseOn(321, reclaimer(true));
    }

    /** A task on {@code shard} whose lease expired is waiting again after {@code sweep}'s runs, as its next attempt. */
    private void recoversAnExpiredLeaseOn(int shard, Reclaimer sweep) {
        String id = IntStream.range(0, 100_000).mapToObj(i -> "orphan-" + i).filter(s -> queue.shardOf(s) == shard).findFirst().orElseThrow();
        queue.client().enqueue(TaskSpec.of(id));
        ClaimBatch batch = queue.claim(shard, 10, Duration.ofMillis(100));
        assertThat(batch.tasks()).hasSize(1);
        queue.awaitExpiry(batch.tasks().get(0).token());

        await().atMost(Duration.ofSeconds(10)).until(() -> {
            sweep.run();
            return queue.client().inspect(id).state() == TaskInfo.State.SCHEDULED;
        });
        assertThat(queue.client().inspect(id).attempts()).isEqualTo(1);
    }
}
