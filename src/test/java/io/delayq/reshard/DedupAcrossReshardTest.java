package io.delayq.reshard;

import io.delayq.claim.ClaimedTask;
import io.delayq.client.DelayQueueClient;
import io.delayq.shard.Sharding;
import io.delayq.task.CancelResult;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dedup windows and debounce deadlines across a 4 -> 16 reshard: a window that runs is refused during the migration
 * (by the old shard) and after it (by the new shard, where the mover copied it); a waiting task's window follows it
 * and starts when it is settled on its new shard; a debounce burst keeps the deadline its first enqueue fixed.
 */
class DedupAcrossReshardTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final int FROM = 4;
    private static final int TO = 16;
    private static final Duration HOUR = Duration.ofHours(1);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "mail", FROM);

    private HeldMover mover;

    @AfterEach
    void release() {
        if (mover != null) {
            mover.close();
        }
    }

    /** Ids whose shard changes with the grow. */
    private static List<String> moving(String prefix, int count) {
        return HeldMover.idsThatMove(prefix + "-", count, FROM, TO);
    }

    private EnqueueResult.Status again(DelayQueueClient client, String id) {
        return client.enqueue(TaskSpec.of(id).after(Duration.ofMinutes(5))).status();
    }

    @Test
    void windowsAndDebounceDeadlinesSurviveTheMove() throws Exception {
        DelayQueueClient client = q.client();
        List<String> acked = moving("welcome", 20);
        List<String> waiting = moving("reminder", 20);
        String burst = moving("reindex", 1).get(0);
        for (String id : acked) {
            assertThat(client.enqueue(TaskSpec.of(id).payload("p").dedupWindow(HOUR)).added()).isTrue();
        }
        for (String id : waiting) {
            assertThat(client.enqueue(TaskSpec.of(id).after(HOUR).payload("p").dedupWindow(HOUR)).added()).isTrue();
        }
        EnqueueResult first = client.enqueue(TaskSpec.of(burst).payload("v1").debounce(Duration.ofMinutes(1), Duration.ofMinutes(5)),
                DuplicatePolicy.DEBOUNCE);
        long deadline = first.dueAt() + Duration.ofMinutes(4).toMillis();
        for (int shard = 0; shard < FROM; shard++) {
            List<ClaimedTask> claimed = q.claim(shard, 1000, Duration.ofMinutes(1)).tasks();
            if (!claimed.isEmpty()) {
                q.ack(claimed.toArray(ClaimedTask[]::new));
            }
        }

        mover = HeldMover.atFirstBatch(DelayQueueClient.builder().redis(redis.url()).queue("mail").shards(FROM).build().protocol(), TO);
        assertThat(sync(client.protocol().refreshLayout()).migrating()).isTrue();
        // during the migration: the old shard answers for the windows that run, and nothing is written on the new shard
        for (String id : acked) {
            assertThat(again(client, id)).as(id).isEqualTo(EnqueueResult.Status.WINDOW);
            assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(id, TO)).due(0), id))).isNull();
        }

        mover.release();
        assertThat(mover.result().get(60, TimeUnit.SECONDS).to()).isEqualTo(TO);

        // after it: the new shards hold the windows
        for (String id : acked) {
            assertThat(sync(q.redis().zscore(q.keys(Sharding.shardOf(id, TO)).dedup(), id))).as(id).isNotNull();
            assertThat(again(client, id)).as(id).isEqualTo(EnqueueResult.Status.WINDOW);
        }
        // a waiting task moved with its pending window, which starts when it is cancelled on its new shard
        for (String id : waiting) {
            assertThat(client.inspect(id).shard()).isEqualTo(Sharding.shardOf(id, TO));
            assertThat(client.cancel(id)).isEqualTo(CancelResult.CANCELLED);
            assertThat(again(client, id)).as(id).isEqualTo(EnqueueResult.Status.WINDOW);
        }
        // the burst's deadline came along in its record: a later enqueue cannot push the task past it
        EnqueueResult capped = client.enqueue(TaskSpec.of(burst).payload("v2").debounce(Duration.ofMinutes(30), Duration.ofMinutes(30)),
                DuplicatePolicy.DEBOUNCE);
        assertThat(capped.status()).isEqualTo(EnqueueResult.Status.REPLACED);
        assertThat(capped.dueAt()).isBetween(deadline - 1_000, deadline + 1_000);
        assertThat(client.inspect(burst).shard()).isEqualTo(Sharding.shardOf(burst, TO));
    }
}
