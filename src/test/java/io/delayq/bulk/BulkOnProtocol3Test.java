package io.delayq.bulk;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.Priority;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol3;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.delayq.InvalidInputException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bulk actions on a queue of protocol 3 (p3/bulk_preview.lua, p3/bulk_apply.lua): protocol 2's filters, actions and
 * answers over buckets of windows and minutes. Every task is acted on once, also where a move lands it in a bucket the
 * walk reaches later, across small batches and a stop; a task in flight is left alone; the buckets' bookkeeping (the
 * waiting count, the id index) follows.
 */
class BulkOnProtocol3Test {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static NewQueuesOnProtocol3 protocol3 = new NewQueuesOnProtocol3();

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "bulk3", 4);

    private BulkActions bulk;
    private long now;

    @BeforeEach
    void open() {
        bulk = new BulkActions(q.protocol().scope(), WAIT);
        now = q.serverNow();
    }

    /** 30 "order-" tasks an hour ahead one minute apart (minutes), 10 "refund-" of priority 1 3-5 minutes ahead (windows), 5 due now. */
    private void fill() {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(Instant.ofEpochMilli(now + 3_600_000 + i * 60_000L)).payload("o" + i));
        }
        for (int i = 0; i < 10; i++) {
            tasks.add(TaskSpec.of("refund-" + i).at(Instant.ofEpochMilli(now + 180_000 + i * 12_000L)).priority(Priority.HIGH));
        }
        for (int i = 0; i < 5; i++) {
            tasks.add(TaskSpec.of("now-" + i).at(Instant.ofEpochMilli(now - 1_000)));
        }
        q.client().enqueueAll(tasks);
    }

    private BulkJob runAll(BulkFilter filter, BulkAction action, int batch) {
        BulkJob job = bulk.start(filter, action, "test");
        return bulk.run(job.id(), BulkRun.defaults().batch(batch).pause(Duration.ZERO));
    }

    @Test
    void aPreviewCountsEachFilterAndSamplesTheEarliestMatchesChangingNothing() {
        fill();
        Map<String, Long> before = q.waiting();

        BulkPreview all = bulk.preview(BulkFilter.ALL);
        assertThat(all.matched()).isEqualTo(45);
        assertThat(all.sample()).extracting(BulkSample::id).startsWith("now-0", "now-1", "now-2", "now-3", "now-4", "refund-0");
        assertThat(bulk.preview(BulkFilter.ALL.prefix("order-")).matched()).isEqualTo(30);
        assertThat(bulk.preview(BulkFilter.ALL.priority(1)).matched()).isEqualTo(10);
        assertThat(bulk.preview(BulkFilter.ALL.state(BulkState.DUE)).matched()).isEqualTo(5);
        assertThat(bulk.preview(BulkFilter.ALL.window(Instant.ofEpochMilli(now + 3_600_000), Instant.ofEpochMilli(now + 3_600_000 + 600_000)))
                .matched()).as("ten minutes of the hour-ahead minutes").isEqualTo(10);
        assertThat(bulk.preview(BulkFilter.ALL.window(Instant.ofEpochMilli(now + 180_000 + 6_000), Instant.ofEpochMilli(now + 180_000 + 30_000)))
                .matched()).as("inside windows: refund-1 and refund-2").isEqualTo(2);
        assertThat(q.waiting()).isEqualTo(before);
    }

    @Test
    void aCancelInSmallBatchesRemovesExactlyTheMatchesAndFreesTheirIds() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.prefix("refund-"), BulkAction.cancel(), 3);

        assertThat(job.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(job.done()).isEqualTo(10);
        assertThat(q.waiting()).hasSize(35).doesNotContainKeys("refund-0", "refund-9");
        assertThat(q.client().inspect("refund-4").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(q.client().stats().scheduled() + q.client().stats().due()).as("the waiting count follows").isEqualTo(35);
        assertThat(q.client().enqueue(TaskSpec.of("refund-4").after(Duration.ofMinutes(1))).status().name()).isEqualTo("ADDED");
    }

    @Test
    void aShiftMovesEveryTaskOnceAlsoWhenItLandsWhereTheWalkGoesNext() {
        fill();
        Map<String, Long> before = q.waiting();
        List<String> acted = new CopyOnWriteArrayList<>();
        // later: windows of the refunds become minutes, minutes move to later minutes; batches of 4 leave buckets half done
        BulkJob job = bulk.start(BulkFilter.ALL.state(BulkState.SCHEDULED), BulkAction.shift(Duration.ofMinutes(30)), "test");
        job = bulk.run(job.id(), BulkRun.defaults().batch(4).pause(Duration.ZERO).onActed(acted::addAll));

        assertThat(job.done()).isEqualTo(40);
        assertThat(acted).hasSize(40).doesNotHaveDuplicates();
        Map<String, Long> after = q.waiting();
        for (Map.Entry<String, Long> e : before.entrySet()) {
            long shift = e.getKey().startsWith("now-") ? 0 : 1_800_000;
            assertThat(after.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue() + shift);
        }
        assertThat(q.client().inspect("refund-3").priority()).isEqualTo(1);
        assertThat(q.storedRecord("order-7")).contains("o7");
    }

    @Test
    void aRescheduleToOneTimeCountsEachTaskOnceAndRunNowSkipsWhatIsDueAlready() {
        fill();
        long at = now + 7_200_000;
        BulkJob moved = runAll(BulkFilter.ALL.prefix("order-"), BulkAction.reschedule(Instant.ofEpochMilli(at)), 5);
        assertThat(moved.done()).isEqualTo(30);
        q.waiting().forEach((id, due) -> {
            if (id.startsWith("order-")) {
                assertThat(due).as(id).isEqualTo(at);
            }
        });

        BulkJob ran = runAll(BulkFilter.ALL, BulkAction.runNow(), 7);
        assertThat(ran.done()).isEqualTo(40);
        assertThat(ran.skipped()).as("the five due already").isEqualTo(5);
        List<String> claimed = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            q.claim(s, 100, Duration.ofMinutes(1)).tasks().forEach(t -> claimed.add(t.id()));
        }
        assertThat(claimed).hasSize(45).doesNotHaveDuplicates();
    }

    @Test
    void aDeadLetterActionKeepsTheReasonAndLeavesATaskInFlightAlone() {
        fill();
        // the claim takes every task due on now-2's shard: those run, the other "now-" tasks wait
        List<ClaimedTask> running = q.claim(q.shardOf("now-2"), 100, Duration.ofMinutes(5)).tasks();
        List<String> runningIds = running.stream().map(ClaimedTask::id).toList();
        assertThat(runningIds).contains("now-2");

        BulkJob job = runAll(BulkFilter.ALL.prefix("now-"), BulkAction.deadLetter("bad batch 2026-12-06"), 2);

        assertThat(job.done()).as("the waiting ones").isEqualTo(5 - runningIds.size());
        for (int i = 0; i < 5; i++) {
            TaskInfo info = q.client().inspect("now-" + i);
            if (runningIds.contains("now-" + i)) {
                assertThat(info.state()).as("now-" + i + " runs").isEqualTo(TaskInfo.State.IN_FLIGHT);
            } else {
                assertThat(info.state()).as("now-" + i).isEqualTo(TaskInfo.State.DEAD);
                assertThat(info.lastError()).isEqualTo("bad batch 2026-12-06");
            }
        }
        assertThat(q.ack(running.toArray(ClaimedTask[]::new))).containsOnly(true);
    }

    @Test
    void aStoppedJobResumesWhereRedisSaysItStoodActingOnNoTaskTwice() {
        fill();
        BulkJob job = bulk.start(BulkFilter.ALL.state(BulkState.SCHEDULED), BulkAction.shift(Duration.ofMinutes(-1)), "test");
        AtomicInteger batches = new AtomicInteger();
        List<String> acted = new CopyOnWriteArrayList<>();
        BulkJob stopped = bulk.run(job.id(), BulkRun.defaults().batch(6).pause(Duration.ZERO)
                .stopWhen(() -> batches.get() >= 3).onProgress(j -> batches.incrementAndGet()).onActed(acted::addAll));
        assertThat(stopped.status()).isEqualTo(BulkJob.Status.STOPPED);
        assertThat(acted).hasSizeLessThan(40);

        BulkJob done = bulk.run(job.id(), BulkRun.defaults().batch(6).pause(Duration.ZERO).onActed(acted::addAll));
        assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(done.done()).isEqualTo(40);
        assertThat(acted).hasSize(40).doesNotHaveDuplicates();
        assertThat(q.allKeys()).as("the handled ids go once the shards are walked through").noneMatch(k -> k.endsWith(":handled"));
    }

    @Test
    void whileAnUpgradeInPlaceHasNotFinishedABulkActionWaits() {
        fill();
        String mark = io.delayq.bucket.BucketLayout.prefix("bulk3", 1) + io.delayq.bucket.BucketLayout.LEGACY;
        TestQueue.sync(q.redis().hset(mark, "since", "1"));   // what an upgrade's first step leaves until the shard holds nothing of protocol 2

        assertThatThrownBy(() -> bulk.preview(BulkFilter.ALL)).isInstanceOf(BulkRefusedException.class)
                .hasMessageContaining("is being upgraded to protocol 3 (shard 1 still holds tasks of protocol 2)");
        TestQueue.sync(q.redis().del(mark));
        assertThat(bulk.preview(BulkFilter.ALL).matched()).isEqualTo(45);
    }

    @Test
    void aGroupFilterIsRefusedNamingTheField() {
        fill();
        assertThatThrownBy(() -> bulk.preview(BulkFilter.ALL.group("acme"))).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("group: no task waits in group 'acme'");
    }
}
