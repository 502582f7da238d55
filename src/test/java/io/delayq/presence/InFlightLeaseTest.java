package io.delayq.presence;

import io.delayq.claim.ClaimedTask;
import io.delayq.shard.ShardRange;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one answer to "who runs this task in flight?" that the CLI's inspect and the console's task page share, read
 * from a real presence registry: the worker that reported the lease's very token, else the live owners of the
 * shard, else no live owner at all (the task waits for a worker of its shard), and an expired lease.
 */
class InFlightLeaseTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final String Q = "leases";
    @RegisterExtension
    final TestQueue queue = TestQueue.eachTest(redis, Q, 2);

    private PresenceRegistry registry() {
        return new PresenceRegistry(redis.admin(), Q, Duration.ofSeconds(5));
    }

    private ClaimedTask inFlight(String id, Duration lease) {
        queue.client().enqueue(TaskSpec.of(id).payload("p"));
        List<ClaimedTask> claimed = queue.claim(queue.shardOf(id), 10, lease).tasks();
        assertThat(claimed).extracting(ClaimedTask::id).containsExactly(id);
        return claimed.get(0);
    }

    private void beat(String worker, int from, int to, List<PresenceRegistry.HeldLease> held) {
        registry().beat(worker, new ShardRange(from, to), "test", "host-" + worker, Duration.ofMinutes(1), held.size(), held);
    }

    private InFlightLease read(String id) {
        TaskInfo info = queue.client().inspect(id);
        assertThat(info.state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        return InFlightLease.read(registry(), info);
    }

    @Test
    void theWorkerThatReportedThisLeasesTokenIsRunningIt() {
        ClaimedTask t = inFlight("order-1", Duration.ofMinutes(1));
        int shard = t.shard();
        beat("w-own", shard, shard, List.of(new PresenceRegistry.HeldLease(t.id(), t.token())));

        InFlightLease lease = read(t.id());

        assertThat(lease.holder().id()).isEqualTo("w-own");
        assertThat(lease.summary()).startsWith("a worker (w-own on host-w-own) is running it (attempt 1); lease expires at "
                + Instant.ofEpochMilli(t.token()) + " (in ");
    }

    @Test
    void aReportOfAnEarlierClaimOfTheSameTaskDoesNotCount() {
        ClaimedTask t = inFlight("order-2", Duration.ofMinutes(1));
        beat("w-own", t.shard(), t.shard(), List.of(new PresenceRegistry.HeldLease(t.id(), t.token() - 1)));

        InFlightLease lease = read(t.id());

        assertThat(lease.holder()).isNull();
        assertThat(lease.summary()).startsWith("in flight (attempt 1); lease expires at " + Instant.ofEpochMilli(t.token()))
                .contains("not reported by the live workers owning shard " + t.shard() + " (w-own)");
    }

    @Test
    void withoutALiveOwnerOfItsShardItSaysSoEvenWhenOtherShardsHaveWorkers() {
        ClaimedTask t = inFlight("order-3", Duration.ofMinutes(1));
        int other = 1 - t.shard();
        beat("w-other", other, other, List.of());

        InFlightLease lease = read(t.id());

        assertThat(lease.holder()).isNull();
        assertThat(lease.owners()).isEmpty();
        assertThat(lease.summary()).isEqualTo("in flight (attempt 1); lease expires at " + Instant.ofEpochMilli(t.token()) + " ("
                + io.delayq.DurationText.relative(t.token(), lease.serverNow()) + "); no live worker owns shard " + t.shard()
                + " — it will be reclaimed when the lease expires and run when a worker for that shard starts");
    }

    @Test
    void anExpiredLeaseIsSweptByTheNextWorkerOfTheQueue() {
        ClaimedTask t = inFlight("order-4", Duration.ofMillis(50));
        queue.awaitExpiry(t.token());

        InFlightLease alone = read(t.id());
        assertThat(alone.expired()).isTrue();
        assertThat(alone.summary()).startsWith("in flight; lease expired at " + Instant.ofEpochMilli(t.token()))
                .contains(" ago): its worker died or stalled; the next lease sweep puts it back to due")
                .endsWith("; no worker of this queue is alive to sweep it: that happens when one starts");

        beat("w-other", 1 - t.shard(), 1 - t.shard(), List.of());
        assertThat(read(t.id()).summary()).endsWith("(or dead-letters it after its last attempt)");
    }
}
