package io.delayq.reshard;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.layout.Layout;
import io.delayq.queue.QueueProtocol;
import io.delayq.script.LuaScript;
import io.delayq.shard.Sharding;
import io.delayq.task.CancelResult;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A 4 -> 16 migration held still after its first batch, so that every id-addressed operation meets both
 * layouts: ids still on their old shard, ids already moved, new ids, ids in the mover's hands, tasks in flight,
 * dead letters, a client of the old layout, a caller that sends no epoch, and a hand-written producer.
 */
class MigrationStatesTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", FROM);

    private HeldMover mover;

    @AfterEach
    void release() {
        if (mover != null) {
            mover.close();
        }
    }

    /** Ids whose shard changes with the grow (old != new). */
    private static List<String> moving(String prefix, int count) {
        return HeldMover.idsThatMove(prefix, count, FROM, TO);
    }

    /** Waiting on that shard (protocol 2's due sets or protocol 3's buckets, as the queue's protocol says). */
    private boolean onShard(int shard, String id) {
        return q.waiting(shard).containsKey(id);
    }

    private boolean bucketed() {
        return q.protocol().buckets() != null;
    }

    @Test
    void everyIdOperationFindsItsTaskInEitherLayoutAndTheMoveCarriesWholeState() throws Exception {
        DelayQueueClient client = q.client();
        Instant later = Instant.ofEpochMilli(q.serverNow() + 600_000);
        List<String> waiting = moving("w-", 40);
        client.enqueueAll(waiting.stream().map(id -> TaskSpec.of(id).at(later).payload("p-" + id)).toList(), DuplicatePolicy.REJECT);
        // a dead letter with its attempts and error, and two tasks in flight, all on shards they leave
        String dead = moving("d-", 1).get(0);
        String acked = moving("a-", 1).get(0);
        String retried = moving("r-", 1).get(0);
        client.enqueueAll(List.of(TaskSpec.of(dead), TaskSpec.of(acked), TaskSpec.of(retried)), DuplicatePolicy.REJECT);
        ClaimedTask deadTask = claimOne(dead);
        q.kill(deadTask, "boom", io.delayq.deadletter.DeadLetterPolicy.DEFAULT);
        ClaimedTask ackedTask = claimOne(acked);
        ClaimedTask retriedTask = claimOne(retried);
        DelayQueueClient stale = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build();

        mover = HeldMover.atFirstBatch(DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build().protocol(), TO);
        Layout during = sync(client.protocol().refreshLayout());
        assertThat(during.migrating()).isTrue();
        assertThat(during.from()).isEqualTo(FROM);
        assertThat(during.shards()).isEqualTo(TO);

        // an id still on its old shard: a duplicate is found there, and each policy acts there
        String old = waiting.stream().filter(id -> onShard(Sharding.shardOf(id, FROM), id)).findFirst().orElseThrow();
        int i = Sharding.shardOf(old, FROM);
        int j = Sharding.shardOf(old, TO);
        assertThat(client.enqueue(TaskSpec.of(old).at(later)).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        Instant earlier = later.minusSeconds(60);
        assertThat(client.enqueue(TaskSpec.of(old).at(earlier), DuplicatePolicy.KEEP_EARLIER).status()).isEqualTo(EnqueueResult.Status.EARLIER);
        assertThat(client.enqueue(TaskSpec.of(old).at(later), DuplicatePolicy.KEEP_EARLIER).status()).isEqualTo(EnqueueResult.Status.KEPT);
        assertThat(client.enqueue(TaskSpec.of(old).at(later).payload("new"), DuplicatePolicy.REPLACE).status()).isEqualTo(EnqueueResult.Status.REPLACED);
        assertThat(onShard(i, old)).isTrue();
        assertThat(onShard(j, old)).isFalse();
        TaskInfo info = client.inspect(old);
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.shard()).isEqualTo(i);
        assertThat(client.reschedule(old, later.plusSeconds(1)).status()).isEqualTo(RescheduleResult.Status.RESCHEDULED);

        // a new id goes to its new shard; a second enqueue finds it there; cancel finds it there
        String fresh = moving("n-", 1).get(0);
        assertThat(client.enqueue(TaskSpec.of(fresh).at(later)).status()).isEqualTo(EnqueueResult.Status.ADDED);
        assertThat(onShard(Sharding.shardOf(fresh, TO), fresh)).isTrue();
        assertThat(onShard(Sharding.shardOf(fresh, FROM), fresh)).isFalse();
        assertThat(client.enqueue(TaskSpec.of(fresh).at(later)).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(client.cancel(fresh)).isEqualTo(CancelResult.CANCELLED);
        assertThat(client.inspect(fresh).state()).isEqualTo(TaskInfo.State.UNKNOWN);

        // a client that last read the old layout is refused by the shard's stamp, re-reads the meta and follows
        String staleId = moving("s-", 1).get(0);
        assertThat(stale.protocol().layout().epoch()).isZero();
        assertThat(stale.enqueue(TaskSpec.of(staleId).at(later)).status()).isEqualTo(EnqueueResult.Status.ADDED);
        assertThat(stale.protocol().layout().epoch()).isEqualTo(during.epoch());
        assertThat(onShard(Sharding.shardOf(staleId, TO), staleId)).isTrue();
        assertThat(stale.enqueue(TaskSpec.of(old).at(later)).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);
        stale.close();

        // a caller that sends no epoch (a library of an earlier version) is refused with the reason, nothing written
        String noEpoch = moving("x-", 1).get(0);
        int noEpochShard = Sharding.shardOf(noEpoch, FROM);
        assertThatThrownBy(() -> sync(bucketed()
                ? q.protocol().scripts().run(io.delayq.bucket.BucketScript.ENQUEUE, List.of(io.delayq.bucket.BucketLayout.prefix("orders", noEpochShard)),
                        List.of("1", noEpoch, String.valueOf(io.delayq.bucket.BucketLayout.indexBucket(noEpoch)), "in", "0", "", "0"))
                : q.protocol().scripts().run(LuaScript.ENQUEUE, q.keys(noEpochShard).scriptKeys(),
                        List.of("reject", "1", noEpoch, "in", "0", "", "0"))))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("LAYOUT " + during.epoch() + " " + TO + " " + FROM)
                .hasMessageContaining("re-read the queue's meta hash");
        assertThat(onShard(noEpochShard, noEpoch)).isFalse();

        // an id in the mover's hands: operations wait for it and then find it on its new shard
        int k = IntStream.range(0, FROM).filter(s -> s != i).findFirst().orElseThrow();
        ReshardScripts.MoveBatch taken = HeldMover.takeOut(q.protocol(), k, TO, 1000);
        assertThat(taken.ids()).isNotEmpty();
        String inHands = taken.ids().get(0);
        CompletableFuture<TaskInfo> looking = client.async().inspect(inHands).toCompletableFuture();
        CompletableFuture<EnqueueResult> writing = client.async().enqueue(TaskSpec.of(inHands).at(later)).toCompletableFuture();
        assertThat(sync(new io.delayq.queue.TaskAdmin(q.protocol().scope()).cancelAt(k, inHands, during.epoch())).moving()).isTrue();
        for (int t = 0; t < TO; t++) {
            int target = t;
            List<Integer> idx = IntStream.range(0, taken.ids().size()).filter(n -> Sharding.shardOf(taken.ids().get(n), TO) == target).boxed().toList();
            if (!idx.isEmpty()) {
                sync(new ReshardScripts(q.protocol().scope()).moveIn(target, k, taken.seq(), idx.stream().map(taken.ids()::get).toList(), idx.stream().map(taken.states()::get).toList()));
            }
        }
        sync(new ReshardScripts(q.protocol().scope()).moveDone(k, taken.seq()));
        assertThat(looking.get(10, TimeUnit.SECONDS).shard()).isEqualTo(Sharding.shardOf(inHands, TO));
        assertThat(looking.get().state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(looking.get().rawRecord()).endsWith(":p-" + inHands);
        assertThat(writing.get(10, TimeUnit.SECONDS).status()).isEqualTo(EnqueueResult.Status.DUPLICATE);

        // in flight when the move started: ack and retry work on the shard they were claimed from
        assertThat(q.ack(ackedTask)).containsExactly(true);
        assertThat(q.retry(retriedTask, Duration.ofMillis(1), "again", 5).status().name()).isEqualTo("RETRIED");

        // a hand-written producer on the old count, during the move
        String byHand = moving("h-", 1).get(0);
        sync(q.redis().zadd(q.keys(Sharding.shardOf(byHand, FROM)).due(0), q.serverNow() + 600_000, byHand));

        mover.release();
        Mover.Result result = mover.result().get(60, TimeUnit.SECONDS);
        assertThat(result.to()).isEqualTo(TO);

        // every waiting or dead task sits on its shard of the new layout, with its state
        for (int s = 0; s < TO; s++) {
            for (String id : q.waiting(s).keySet()) {
                assertThat(Sharding.shardOf(id, TO)).as(id + " on shard " + s).isEqualTo(s);
            }
            for (String id : sync(q.redis().zrange(q.keys(s).dead(), 0, -1))) {
                assertThat(Sharding.shardOf(id, TO)).as("dead " + id + " on shard " + s).isEqualTo(s);
            }
            assertThat(sync(q.redis().exists(q.keys(s).moving()))).isZero();
        }
        TaskInfo deadInfo = client.inspect(dead);
        assertThat(deadInfo.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(deadInfo.shard()).isEqualTo(Sharding.shardOf(dead, TO));
        assertThat(deadInfo.attempts()).isEqualTo(1);
        assertThat(deadInfo.lastError()).isEqualTo("boom");
        TaskInfo retriedInfo = client.inspect(retried);
        assertThat(retriedInfo.shard()).isEqualTo(Sharding.shardOf(retried, TO));
        assertThat(retriedInfo.attempts()).isEqualTo(1);
        assertThat(retriedInfo.lastError()).isEqualTo("again");
        assertThat(client.inspect(acked).state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(client.inspect(old).rawRecord()).endsWith(":new");
        assertThat(client.inspect(old).score()).isEqualTo(later.plusSeconds(1).toEpochMilli());
        for (String id : waiting) {
            assertThat(client.inspect(id).state()).as(id).isEqualTo(TaskInfo.State.SCHEDULED);
        }
        assertThat(client.inspect(byHand).shard()).isEqualTo(Sharding.shardOf(byHand, TO));

        // after the move: a hand-written producer still on the old count writes a task that is found and fires
        String after = moving("late-", 1).get(0);
        int oldShard = Sharding.shardOf(after, FROM);
        sync(q.redis().zadd(q.keys(oldShard).due(0), q.serverNow() - 1, after));
        assertThat(client.inspect(after).shard()).isEqualTo(oldShard);
        assertThat(client.cancel(after)).isEqualTo(CancelResult.CANCELLED);
        sync(q.redis().zadd(q.keys(oldShard).due(0), q.serverNow() - 1, after));
        assertThat(q.claim(oldShard, 100, Duration.ofSeconds(30)).tasks()).extracting(ClaimedTask::id).contains(after);
    }

    @Test
    void aShrinkAndASecondMigrationAreRefusedWithTheRule_theSameCountOnlyRewritesTheStamps() throws Exception {
        assertThatThrownBy(() -> new Mover(Mover.Params.of(q.protocol(), 2, p -> { })).run())
                .hasMessageContaining("shrinking is not supported (4 -> 2)");
        assertThat(new Mover(Mover.Params.of(q.protocol(), 4, p -> { })).run().alreadyThere()).isTrue();
        q.client().enqueue(TaskSpec.of("one").after(Duration.ofMinutes(5)));
        mover = HeldMover.atFirstBatch(DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build().protocol(), TO);
        // a second mover is refused by the first one's lease, with what runs and who drives it
        assertThatThrownBy(() -> new Mover(Mover.Params.of(q.protocol(), 32, p -> { })).run())
                .isInstanceOf(MoverBusyException.class).hasMessageContaining("a migration from 4 to 16 shards is running: queue 'orders' is being resharded by ");
        // and past the lease (its holder crashed and the lease ran out), reshard_begin refuses another count
        assertThatThrownBy(() -> sync(new ReshardScripts(q.protocol().scope()).reshardBegin(32)))
                .hasMessageContaining("a migration from 4 to 16 shards is running: finish it first");
        mover.release();
        assertThat(mover.result().get(30, TimeUnit.SECONDS).to()).isEqualTo(TO);
        assertThatThrownBy(() -> new Mover(Mover.Params.of(q.protocol(), 8, p -> { })).run())
                .hasMessageContaining("shrinking is not supported (16 -> 8)");
        // a crash between the end of the migration and its last stamps: running it again repairs them
        sync(q.redis().hset(q.keys(5).layout(), "stamp", "1 16 4"));
        assertThat(new Mover(Mover.Params.of(q.protocol(), 16, p -> { })).run().alreadyThere()).isTrue();
        assertThat(sync(q.redis().hget(q.keys(5).layout(), "stamp"))).isEqualTo("2 16 0");
        assertThat(q.client().enqueue(TaskSpec.of("after-repair")).status()).isEqualTo(EnqueueResult.Status.ADDED);
    }

    private ClaimedTask claimOne(String id) {
        int shard = Sharding.shardOf(id, FROM);
        ClaimBatch b = q.claim(shard, 100, Duration.ofMinutes(5));
        return b.tasks().stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow();
    }
}
