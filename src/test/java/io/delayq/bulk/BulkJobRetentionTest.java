package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.task.TaskSpec;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bulk job's record on a real Redis: kept while the job runs, expiring some time after it ends (done, or stopped
 * and never resumed), the expiry lifted when a stopped job is resumed; the job list leaves out jobs that are gone
 * and takes their ids off the queue's list of jobs.
 */
class BulkJobRetentionTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "bulkkept", 4);

    private BulkActions bulk;

    @BeforeEach
    void open() {
        bulk = new BulkActions(q.protocol().scope(), WAIT);
        Instant base = Instant.ofEpochMilli(q.serverNow()).plus(Duration.ofHours(1));
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(base.plus(Duration.ofMinutes(i))));
        }
        q.client().enqueueAll(tasks);
    }

    private long ttlMillis(String jobId) {
        return sync(q.redis().pttl(BulkKeys.job("bulkkept", jobId)));
    }

    @Test
    void aRunningJobNeverExpiresAndADoneOneExpiresAboutARetentionAfterItEnds() {
        BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.shift(Duration.ofMinutes(1)), "test");
        assertThat(ttlMillis(job.id())).as("created: running").isEqualTo(-1);
        List<Long> ttlWhileRunning = new ArrayList<>();
        BulkJob done = bulk.run(job.id(), BulkRun.defaults().batch(5).pause(Duration.ZERO).onProgress(p -> {
            if (p.status() == BulkJob.Status.RUNNING) {
                ttlWhileRunning.add(ttlMillis(job.id()));
            }
        }));

        assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(ttlWhileRunning).isNotEmpty().containsOnly(-1L);
        assertThat(ttlMillis(job.id())).isBetween(BulkJobStore.DONE_KEPT.minusMinutes(1).toMillis(), BulkJobStore.DONE_KEPT.toMillis());
        for (int shard = 0; shard < 4; shard++) {
            assertThat(sync(q.redis().pttl(BulkKeys.shardCursor("bulkkept", shard, job.id(), done.epoch()))))
                    .as("shard %d's cursor", shard).isBetween(BulkJobStore.DONE_KEPT.minusMinutes(1).toMillis(), BulkJobStore.DONE_KEPT.toMillis());
        }
    }

    @Test
    void aStoppedJobExpiresAfterALongerRetentionAndResumingItLiftsTheExpiry() {
        BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.cancel(), "test");
        AtomicInteger batches = new AtomicInteger();
        BulkJob stopped = bulk.run(job.id(), BulkRun.defaults().batch(5).pause(Duration.ZERO)
                .stopWhen(() -> batches.get() >= 2).onProgress(p -> batches.incrementAndGet()));
        assertThat(stopped.status()).isEqualTo(BulkJob.Status.STOPPED);
        assertThat(ttlMillis(job.id())).isBetween(BulkJobStore.STOPPED_KEPT.minusMinutes(1).toMillis(), BulkJobStore.STOPPED_KEPT.toMillis());
        assertThat(sync(q.redis().pttl(BulkKeys.shardCursor("bulkkept", 0, job.id(), stopped.epoch()))))
                .as("a stopped job's cursors say where to resume: kept as long as its record")
                .isBetween(BulkJobStore.STOPPED_KEPT.minusMinutes(1).toMillis(), BulkJobStore.STOPPED_KEPT.toMillis());

        List<Long> ttlResumed = new ArrayList<>();
        List<Long> cursorTtlResumed = new ArrayList<>();
        AtomicInteger resumedBatches = new AtomicInteger();
        BulkJob stoppedAgain = bulk.run(job.id(), BulkRun.defaults().batch(5).pause(Duration.ZERO)
                .stopWhen(() -> resumedBatches.get() >= 1).onProgress(p -> {
                    resumedBatches.incrementAndGet();
                    ttlResumed.add(ttlMillis(job.id()));
                    cursorTtlResumed.add(sync(q.redis().pttl(BulkKeys.shardCursor("bulkkept", 0, job.id(), stopped.epoch()))));
                }));
        assertThat(ttlResumed).as("resumed: running again, no expiry").first().isEqualTo(-1L);
        assertThat(cursorTtlResumed).as("resumed: its cursors are kept again until it ends").first().isEqualTo(-1L);
        assertThat(stoppedAgain.status()).isEqualTo(BulkJob.Status.STOPPED);

        // resumed to its end: the record expires as a done one
        BulkJob done = bulk.run(job.id(), BulkRun.defaults().batch(5).pause(Duration.ZERO));
        assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(ttlMillis(job.id())).isBetween(BulkJobStore.DONE_KEPT.minusMinutes(1).toMillis(), BulkJobStore.DONE_KEPT.toMillis());
    }

    @Test
    void theJobListSkipsJobsThatExpiredAndForgetsTheirIds() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.runNow(), "test");
            ids.add(bulk.run(job.id(), BulkRun.defaults().pause(Duration.ZERO)).id());
        }
        // two of them expire (the newest and the oldest): Redis drops the record, the list still names them
        for (String gone : List.of(ids.get(4), ids.get(0))) {
            assertThat(sync(q.redis().pexpire(BulkKeys.job("bulkkept", gone), 1))).isTrue();
        }
        org.awaitility.Awaitility.await().atMost(WAIT).until(() -> sync(q.redis().exists(BulkKeys.job("bulkkept", ids.get(4)),
                BulkKeys.job("bulkkept", ids.get(0)))) == 0);
        assertThat(sync(q.redis().zcard(BulkKeys.jobs("bulkkept")))).isEqualTo(5);

        // a listing of the newest three meets the newest gone; the oldest lies beyond it and is looked at as one of the oldest
        assertThat(bulk.jobs(3)).extracting(BulkJob::id).containsExactly(ids.get(3), ids.get(2));
        assertThat(sync(q.redis().zrange(BulkKeys.jobs("bulkkept"), 0, -1))).containsExactly(ids.get(1), ids.get(2), ids.get(3));
        assertThat(bulk.jobs(10)).extracting(BulkJob::id).containsExactly(ids.get(3), ids.get(2), ids.get(1));
        assertThatThrownBy(() -> bulk.job(ids.get(0))).isInstanceOf(InvalidInputException.class).hasMessageContaining("no bulk job");
    }

    @Test
    void progressOfAJobThatIsGoneDoesNotBringBackAFragment() {
        BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.runNow(), "test");
        sync(q.redis().del(BulkKeys.job("bulkkept", job.id())));
        BulkJobStore store = new BulkJobStore(q.redis(), q.protocol().scope().scripts(), "bulkkept", WAIT);

        assertThat(store.progress(job.id(), BulkJob.Status.DONE, 1, 0, 1L, "")).isFalse();
        assertThat(sync(q.redis().exists(BulkKeys.job("bulkkept", job.id())))).isZero();
        assertThatThrownBy(() -> bulk.run(job.id(), BulkRun.defaults())).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no bulk job '" + job.id() + "'");
    }
}
