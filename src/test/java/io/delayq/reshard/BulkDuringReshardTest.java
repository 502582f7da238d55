package io.delayq.reshard;

import io.delayq.bulk.BulkAction;
import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkFilter;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkRefusedException;
import io.delayq.bulk.BulkRun;
import io.delayq.client.DelayQueueClient;
import io.delayq.shard.ShardKeys;
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
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bulk actions and a reshard: nothing starts or goes on while a migration runs (a clear refusal, the job left
 * stopped where it was); after it, a cancel resumes over the new layout's shards, and a shift refuses to resume.
 */
class BulkDuringReshardTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 4);

    private HeldMover mover;
    private DelayQueueClient moverClient;

    @AfterEach
    void release() {
        if (mover != null) {
            mover.close();
        }
        if (moverClient != null) {
            moverClient.close();
        }
    }

    private long waitingWithPrefix(String prefix, int shards) {
        long n = 0;
        for (int s = 0; s < shards; s++) {
            ShardKeys k = new ShardKeys("orders", s);
            n += q.waiting(s).keySet().stream().filter(id -> id.startsWith(prefix)).count();
            n += get(q.redis().zrange(k.groupedDue(), 0, -1)).stream().filter(id -> id.startsWith(prefix)).count();
        }
        return n;
    }

    @Test
    void aJobStopsDuringAReshardAndACancelResumesOnTheNewShardsAfterIt() throws Exception {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            tasks.add(TaskSpec.of("gone-" + i).after(Duration.ofHours(1)));
            tasks.add(TaskSpec.of("kept-" + i).after(Duration.ofHours(1)));
        }
        for (int i = 0; i < 40; i++) {
            tasks.add(TaskSpec.of("later-" + i).after(Duration.ofHours(2)));
        }
        q.client().enqueueAll(tasks);
        BulkActions bulk = new BulkActions(q.protocol().scope(), TestQueue.WAIT);
        BulkJob cancel = bulk.start(BulkFilter.ALL.prefix("gone-"), BulkAction.cancel(), "test");
        BulkJob shift = bulk.start(BulkFilter.ALL.prefix("later-"), BulkAction.shift(Duration.ofMinutes(1)), "test");
        AtomicInteger batches = new AtomicInteger();
        assertThat(bulk.run(cancel.id(), BulkRun.defaults().batch(10).stopWhen(() -> batches.getAndIncrement() >= 3)).done()).isEqualTo(30);
        assertThat(bulk.run(shift.id(), BulkRun.defaults().batch(5).stopWhen(() -> batches.getAndIncrement() >= 5)).done()).isEqualTo(5);

        moverClient = DelayQueueClient.builder().redis(redis.url()).queue("orders").shards(4).build();
        mover = HeldMover.atFirstBatch(moverClient.protocol(), 16);
        assertThatThrownBy(() -> bulk.preview(BulkFilter.ALL))
                .isInstanceOf(BulkRefusedException.class)
                .hasMessageContaining("queue 'orders' is being resharded from 4 to 16 shards: bulk actions act per shard of one layout, so they wait");
        assertThatThrownBy(() -> bulk.run(cancel.id(), BulkRun.defaults()))
                .isInstanceOf(BulkRefusedException.class)
                .hasMessageContaining("job " + cancel.id() + " is stopped at 30 of 200: resume it when the reshard has finished");
        assertThat(bulk.job(cancel.id()).status()).isEqualTo(BulkJob.Status.STOPPED);
        assertThat(bulk.job(cancel.id()).done()).isEqualTo(30);

        mover.release();
        assertThat(mover.result().get(60, TimeUnit.SECONDS).moved()).isPositive();
        BulkJob done = bulk.run(cancel.id(), BulkRun.defaults().batch(10));
        assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(done.shards()).isEqualTo(16);
        assertThat(done.done()).isEqualTo(200);
        assertThat(waitingWithPrefix("gone-", 16)).isZero();
        assertThat(waitingWithPrefix("kept-", 16)).isEqualTo(200);

        assertThatThrownBy(() -> bulk.run(shift.id(), BulkRun.defaults()))
                .isInstanceOf(BulkRefusedException.class)
                .hasMessageContaining("a shift cannot be resumed on the new shards without shifting some tasks twice; 5 tasks were shifted");
        assertThat(waitingWithPrefix("later-", 16)).isEqualTo(40);
    }
}
