package io.delayq.reshard;

import io.delayq.queue.QueueProtocol;
import io.delayq.shard.Sharding;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch half delivered under one count and resumed under another: a worker's stray sweep (queue at 16 shards) took a
 * batch out of an old shard and wrote it to its home shards, then died before move_done; a 16 -> 64 migration starts
 * and its mover finds that batch. Delivered by the count it was taken for (move_out's `t`), the second delivery is a
 * no-op and the mover's passes then move the tasks on; delivered by 64, every task would sit on two shards.
 */
class PendingBatchTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    private List<Integer> shardsHolding(String id) {
        return IntStream.range(0, 64).filter(s -> q.waiting(s).containsKey(id)).boxed().toList();
    }

    @Test
    void aBatchIsDeliveredByTheCountItWasTakenForWhoeverResumesIt() throws Exception {
        assertThat(new Mover(Mover.Params.of(q.protocol(), 16, p -> { })).run().to()).isEqualTo(16);
        // strays of a stale 4-shard producer on shard 0, whose homes differ under 16 and under 64
        List<String> ids = IntStream.range(0, 5000).mapToObj(n -> "stray-" + n)
                .filter(id -> Sharding.shardOf(id, 4) == 0 && Sharding.shardOf(id, 16) != 0
                        && Sharding.shardOf(id, 64) != Sharding.shardOf(id, 16)).limit(20).toList();
        long later = q.serverNow() + 600_000;
        for (String id : ids) {
            sync(q.redis().zadd(q.keys(0).due(0), later, id));
        }
        // the sweep's half: move_out and move_in under 16 shards, then it dies before move_done
        ReshardScripts.MoveBatch taken = HeldMover.takeOut(q.protocol(), 0, 16, 100);
        assertThat(taken.ids()).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(taken.to()).isEqualTo(16);
        for (int target = 0; target < 16; target++) {
            int t = target;
            List<Integer> idx = IntStream.range(0, taken.ids().size()).filter(n -> Sharding.shardOf(taken.ids().get(n), 16) == t).boxed().toList();
            if (!idx.isEmpty()) {
                sync(new ReshardScripts(q.protocol().scope()).moveIn(target, 0, taken.seq(), idx.stream().map(taken.ids()::get).toList(),
                        idx.stream().map(taken.states()::get).toList()));
            }
        }

        // held at its first progress report, right after it delivered the pending batch: each task on one shard only
        // (a copy on its 64-shard home beside the one on its 16-shard home could fire twice, both as attempt 1)
        try (HeldMover mover = HeldMover.start(progress -> Mover.Params.of(q.protocol(), 64, progress), p -> p.phase().equals("moving"))) {
            for (String id : ids) {
                assertThat(shardsHolding(id)).as(id + " right after the pending batch was delivered").containsExactly(Sharding.shardOf(id, 16));
            }
            mover.release();
            assertThat(mover.result().get(60, java.util.concurrent.TimeUnit.SECONDS).to()).isEqualTo(64);
        }
        for (String id : ids) {
            assertThat(shardsHolding(id)).as(id + " sits on exactly its shard of the 64-shard layout").containsExactly(Sharding.shardOf(id, 64));
            assertThat(q.client().inspect(id).score()).isEqualTo(later);
        }
    }
}
