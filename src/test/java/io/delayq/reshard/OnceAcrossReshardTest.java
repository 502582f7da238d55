package io.delayq.reshard;

import io.delayq.claim.ClaimedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.shard.Sharding;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The once mode (recurring-task occurrences, docs/schedules.md) across a 4 -> 16 reshard: an occurrence enqueued
 * once before the move is refused again during it (by its old shard's once set) and after it (by its new shard,
 * where the mover copied the entry) — whether its task was acked and is gone or still waits — while a new
 * occurrence is enqueued once, on its new shard.
 */
class OnceAcrossReshardTest {
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

    /** Occurrence ids (as the planner names them) whose shard changes with the grow. */
    private static List<String> moving(String schedule, int count) {
        List<String> ids = new ArrayList<>();
        for (long at = 1_764_460_000_000L; ids.size() < count; at += 60_000) {
            String id = "sched:" + schedule + ":1:" + at;
            if (Sharding.shardOf(id, FROM) != Sharding.shardOf(id, TO)) {
                ids.add(id);
            }
        }
        return ids;
    }

    private EnqueueResult.Status once(DelayQueueClient client, String id) {
        return client.enqueue(TaskSpec.of(id).after(Duration.ofMinutes(5)), DuplicatePolicy.ONCE).status();
    }

    @Test
    void anOccurrenceEnqueuedOnceBeforeTheMoveIsRefusedDuringAndAfterIt() throws Exception {
        DelayQueueClient client = q.client();
        List<String> fired = moving("fired", 30);
        List<String> waiting = moving("waiting", 30);
        for (String id : fired) {
            assertThat(client.enqueue(TaskSpec.of(id), DuplicatePolicy.ONCE).status()).isEqualTo(EnqueueResult.Status.ADDED);
        }
        for (String id : waiting) {
            assertThat(once(client, id)).isEqualTo(EnqueueResult.Status.ADDED);
        }
        // the fired occurrences run and are acked: their tasks are gone, only the once entries remember them
        for (int shard = 0; shard < FROM; shard++) {
            List<ClaimedTask> claimed = q.claim(shard, 1000, Duration.ofMinutes(1)).tasks();
            if (!claimed.isEmpty()) {
                q.ack(claimed.toArray(ClaimedTask[]::new));
            }
        }
        for (String id : fired) {
            assertThat(client.inspect(id).state()).isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
        }

        mover = HeldMover.atFirstBatch(DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(FROM).build().protocol(), TO);
        assertThat(sync(client.protocol().refreshLayout()).migrating()).isTrue();

        // during the migration: refused by the old shard's once set, and nothing is written on the new shard
        for (String id : fired) {
            assertThat(once(client, id)).as(id).isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(id, TO)).due(0), id))).isNull();
        }
        for (String id : waiting) {
            assertThat(once(client, id)).as(id).isEqualTo(EnqueueResult.Status.DUPLICATE);
        }
        // a new occurrence is enqueued once, on its new shard, and recorded there only
        String fresh = moving("fresh", 1).get(0);
        assertThat(once(client, fresh)).isEqualTo(EnqueueResult.Status.ADDED);
        assertThat(once(client, fresh)).isEqualTo(EnqueueResult.Status.DUPLICATE);
        assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(fresh, TO)).once(), fresh))).isNotNull();
        assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(fresh, FROM)).once(), fresh))).isNull();

        mover.release();
        assertThat(mover.result().get(60, TimeUnit.SECONDS).to()).isEqualTo(TO);

        // after it: enqueues go to the new shard only, whose once set now holds the copies
        for (String id : fired) {
            assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(id, TO)).once(), id))).as(id).isNotNull();
            assertThat(once(client, id)).as(id).isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(client.inspect(id).state()).isEqualTo(io.delayq.task.TaskInfo.State.UNKNOWN);
        }
        for (String id : waiting) {
            assertThat(once(client, id)).as(id).isEqualTo(EnqueueResult.Status.DUPLICATE);
            assertThat(client.inspect(id).shard()).isEqualTo(Sharding.shardOf(id, TO));
        }
        String later = moving("later", 1).get(0);
        assertThat(once(client, later)).isEqualTo(EnqueueResult.Status.ADDED);
    }
}
