package io.delayq.reshard;

import io.delayq.client.DelayQueueClient;
import io.delayq.layout.LayoutChangedException;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A task left in an old shard's `moving` hash by a mover that stopped (killed between taking a batch and
 * delivering it): a by-id call through the blocking client waits for the mover as long as the routing's patience
 * and then says what is wrong and how to fix it, even when the client's command timeout is shorter, and changes
 * nothing.
 */
class StoppedMoverTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", FROM);

    @Test
    void aByIdCallOnATaskInAStoppedMoversHandsFailsWithTheResumeAdviceNotATimeout() throws Exception {
        Instant later = Instant.ofEpochMilli(q.serverNow() + 600_000);
        List<String> ids = HeldMover.idsThatMove("m-", 40, FROM, TO);
        q.client().enqueueAll(ids.stream().map(id -> TaskSpec.of(id).at(later)).toList(), DuplicatePolicy.REJECT);
        try (HeldMover mover = HeldMover.atFirstBatch(q.protocol(), TO);
             DelayQueueClient shortTimeout = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM)
                     .timeout(Duration.ofSeconds(1)).build()) {
            int shard = ids.stream().mapToInt(id -> io.delayq.shard.Sharding.shardOf(id, FROM))
                    .filter(s -> !q.waiting(s).isEmpty()).findFirst().orElseThrow();
            // taken out and never delivered: what a mover killed after move_out leaves behind
            ReshardScripts.MoveBatch taken = HeldMover.takeOut(q.protocol(), shard, TO, 1000);
            assertThat(taken.ids()).isNotEmpty();
            String inHands = taken.ids().get(0);

            assertThatThrownBy(() -> shortTimeout.cancel(inHands))
                    .isInstanceOf(LayoutChangedException.class)
                    .hasMessageContaining("task '" + inHands + "' of queue 'orders' stayed in a shard's `moving` hash")
                    .hasMessageContaining("resume it (delayq reshard orders --to 16)");
            assertThat(sync(q.redis().hexists(q.keys(shard).moving(), inHands)))
                    .as("the refused cancel left the task where the mover put it").isTrue();
        }
    }
}
