package io.delayq.bulk;

import io.delayq.InvalidInputException;
import io.delayq.claim.ClaimedTask;
import io.delayq.task.TaskInfo;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every bulk action with each filter on a real Redis: what it changes (and leaves alone), the preview that changes
 * nothing, bad input, a task in flight, and a run stopped between batches and resumed with no task acted on twice.
 */
class BulkActionsTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "bulk", 4);

    private BulkActions bulk;
    private Instant base;

    @BeforeEach
    void open() {
        bulk = new BulkActions(q.protocol().scope(), WAIT);
        base = Instant.ofEpochMilli(q.serverNow()).plus(Duration.ofHours(1));
    }

    /** 30 "order-" tasks an hour ahead one minute apart, 10 "refund-" (priority 1), 10 grouped "tenant-" (group acme), 5 due now. */
    private void fill() {
        List<TaskSpec> tasks = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            tasks.add(TaskSpec.of("order-" + i).at(base.plus(Duration.ofMinutes(i))));
        }
        for (int i = 0; i < 10; i++) {
            tasks.add(TaskSpec.of("refund-" + i).at(base.plus(Duration.ofMinutes(i))).priority(1));
            tasks.add(TaskSpec.of("tenant-" + i).at(base.plus(Duration.ofMinutes(i))).group("acme"));
        }
        for (int i = 0; i < 5; i++) {
            tasks.add(TaskSpec.of("late-" + i).at(base.minus(Duration.ofHours(2))));
        }
        q.client().enqueueAll(tasks);
    }

    private BulkJob runAll(BulkFilter filter, BulkAction action, int batch) {
        BulkJob job = bulk.start(filter, action, "test");
        return bulk.run(job.id(), BulkRun.defaults().batch(batch).pause(Duration.ZERO));
    }

    /** Every waiting task: id -> due ms, over all shards and sets. */
    private Map<String, Long> waiting() {
        Map<String, Long> out = new TreeMap<>();
        for (int s = 0; s < 4; s++) {
            for (String key : List.of(q.keys(s).due(0), q.keys(s).due(1), q.keys(s).due(2), q.keys(s).groupedDue())) {
                for (ScoredValue<String> v : q.zrange(key)) {
                    out.put(v.getValue(), (long) v.getScore());
                }
            }
        }
        return out;
    }

    private Map<String, String> dump() {
        Map<String, String> out = new TreeMap<>();
        for (String key : q.allKeys()) {
            out.put(key, String.valueOf(TestQueue.get(q.redis().dump(key)) == null ? null : java.util.Arrays.toString(TestQueue.get(q.redis().dump(key)))));
        }
        return out;
    }

    @Test
    void previewCountsAndSamplesWithoutChangingAnything() {
        fill();
        Map<String, String> before = dump();
        BulkPreview all = bulk.preview(BulkFilter.ALL);
        assertThat(all.matched()).isEqualTo(55);
        assertThat(all.sample()).hasSize(BulkActions.SAMPLE);
        assertThat(all.sample().get(0).id()).startsWith("late-");
        assertThat(bulk.preview(BulkFilter.ALL.prefix("order-")).matched()).isEqualTo(30);
        assertThat(bulk.preview(BulkFilter.ALL.priority(1)).matched()).isEqualTo(10);
        assertThat(bulk.preview(BulkFilter.ALL.group("acme")).matched()).isEqualTo(10);
        assertThat(bulk.preview(BulkFilter.ALL.state(BulkState.DUE)).matched()).isEqualTo(5);
        assertThat(bulk.preview(BulkFilter.ALL.state(BulkState.SCHEDULED)).matched()).isEqualTo(50);
        BulkPreview window = bulk.preview(BulkFilter.ALL.window(base.plus(Duration.ofMinutes(5)), base.plus(Duration.ofMinutes(8))));
        assertThat(window.matched()).as("minutes 5, 6, 7 of orders, refunds and tenants").isEqualTo(9);
        assertThat(window.earliest()).isEqualTo(base.plus(Duration.ofMinutes(5)).toEpochMilli());
        assertThat(window.latest()).isEqualTo(base.plus(Duration.ofMinutes(7)).toEpochMilli());
        assertThat(dump()).isEqualTo(before);
    }

    @Test
    void cancelByPrefixAndWindowDeletesOnlyWhatMatches() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.prefix("order-").window(base, base.plus(Duration.ofMinutes(10))), BulkAction.cancel(), 3);
        assertThat(job.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(job.done()).isEqualTo(10);
        Map<String, Long> left = waiting();
        for (int i = 0; i < 30; i++) {
            assertThat(left.containsKey("order-" + i)).as("order-" + i).isEqualTo(i >= 10);
        }
        assertThat(left).hasSize(45);
        assertThat(q.client().inspect("order-3").state()).isEqualTo(TaskInfo.State.UNKNOWN);
        assertThat(q.storedRecord("order-3")).isNull();
    }

    @Test
    void cancelOfAGroupSettlesTheGroupsTurn() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.group("acme"), BulkAction.cancel(), 4);
        assertThat(job.done()).isEqualTo(10);
        assertThat(waiting().keySet()).noneMatch(id -> id.startsWith("tenant-"));
        for (int s = 0; s < 4; s++) {
            assertThat(q.zrange(q.keys(s).groups())).as("no turn is left for an empty group").isEmpty();
        }
    }

    @Test
    void rescheduleMovesThePriorityLevelToOneTime() {
        fill();
        Instant at = base.plus(Duration.ofDays(1));
        BulkJob job = runAll(BulkFilter.ALL.priority(1), BulkAction.reschedule(at), 2);
        assertThat(job.done()).isEqualTo(10);
        Map<String, Long> w = waiting();
        for (int i = 0; i < 10; i++) {
            assertThat(w.get("refund-" + i)).isEqualTo(at.toEpochMilli());
            assertThat(w.get("order-" + i)).isEqualTo(base.plus(Duration.ofMinutes(i)).toEpochMilli());
        }
        assertThat(q.client().inspect("refund-4").priority()).isEqualTo(1);
    }

    @Test
    void aShiftLaterMovesEachTaskOnceEvenWhenItLandsInsideTheWindow() {
        fill();
        // every order moves by 5 minutes, into the window again: a walk in due order would meet them twice
        BulkJob job = runAll(BulkFilter.ALL.prefix("order-"), BulkAction.shift(Duration.ofMinutes(5)), 3);
        assertThat(job.done()).isEqualTo(30);
        Map<String, Long> w = waiting();
        for (int i = 0; i < 30; i++) {
            assertThat(w.get("order-" + i)).as("order-" + i).isEqualTo(base.plus(Duration.ofMinutes(i + 5)).toEpochMilli());
        }
        assertThat(w.get("tenant-0")).isEqualTo(base.toEpochMilli());
    }

    @Test
    void aShiftEarlierOfAGroupMovesItsTasksAndItsTurn() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.group("acme"), BulkAction.shift(Duration.ofMinutes(-30)), 3);
        assertThat(job.done()).isEqualTo(10);
        Map<String, Long> w = waiting();
        for (int i = 0; i < 10; i++) {
            assertThat(w.get("tenant-" + i)).isEqualTo(base.plus(Duration.ofMinutes(i - 30)).toEpochMilli());
        }
        for (int s = 0; s < 4; s++) {
            for (ScoredValue<String> turn : q.zrange(q.keys(s).groups())) {
                assertThat((long) turn.getScore()).isLessThan(base.minus(Duration.ofMinutes(20)).toEpochMilli());
            }
        }
    }

    @Test
    void runNowMakesScheduledTasksDueAndLeavesDueOnesAlone() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.prefix("tenant-").window(null, base.plus(Duration.ofMinutes(3))), BulkAction.runNow(), 2);
        assertThat(job.done()).isEqualTo(3);
        long now = q.serverNow();
        Map<String, Long> w = waiting();
        assertThat(w.get("tenant-2")).isLessThanOrEqualTo(now);
        assertThat(w.get("tenant-3")).isEqualTo(base.plus(Duration.ofMinutes(3)).toEpochMilli());
        BulkJob late = runAll(BulkFilter.ALL.prefix("late-"), BulkAction.runNow(), 2);
        assertThat(late.done()).isZero();
        assertThat(late.skipped()).as("already due").isEqualTo(5);
        // a claim now gets the grouped tasks that were made due
        List<String> claimed = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            q.claim(s, 100, Duration.ofMinutes(1)).tasks().forEach(t -> claimed.add(t.id()));
        }
        assertThat(claimed).contains("tenant-0", "tenant-1", "tenant-2").doesNotContain("tenant-3");
    }

    @Test
    void deadLetteringRecordsTheReasonAndKeepsTheRecord() {
        fill();
        BulkJob job = runAll(BulkFilter.ALL.state(BulkState.DUE), BulkAction.deadLetter("stale after the outage"), 2);
        assertThat(job.done()).isEqualTo(5);
        TaskInfo dead = q.client().inspect("late-1");
        assertThat(dead.state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(dead.lastError()).isEqualTo("stale after the outage");
        assertThat(waiting()).hasSize(50);
    }

    @Test
    void aTaskInFlightIsNeverTouched() {
        q.client().enqueue(TaskSpec.of("running").after(Duration.ZERO));
        q.client().enqueue(TaskSpec.of("waiting").after(Duration.ofHours(1)));
        ClaimedTask running = null;
        for (int s = 0; s < 4 && running == null; s++) {
            List<ClaimedTask> t = q.claim(s, 10, Duration.ofMinutes(1)).tasks();
            running = t.isEmpty() ? null : t.get(0);
        }
        assertThat(running).isNotNull();
        BulkJob job = runAll(BulkFilter.ALL, BulkAction.cancel(), 10);
        assertThat(job.done()).isEqualTo(1);
        assertThat(q.client().inspect("running").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        assertThat(q.ack(running)).containsExactly(true);
    }

    @Test
    void badInputIsRefusedNamingTheFieldAndNothingIsDone() {
        fill();
        Map<String, String> before = dump();
        assertThatThrownBy(() -> BulkFilter.ALL.window(base, base)).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("to: the due window [from, to) must end after it starts");
        assertThatThrownBy(() -> bulk.preview(BulkFilter.ALL.group("nobody"))).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("group: no task waits in group 'nobody'");
        assertThatThrownBy(() -> bulk.start(BulkFilter.ALL.prefix("nothing-"), BulkAction.cancel(), "t"))
                .isInstanceOf(NothingMatchedException.class).hasMessageContaining("matches waiting tasks, id prefix 'nothing-'")
                .hasMessageContaining("nothing was done");
        assertThatThrownBy(() -> BulkAction.Kind.parse("explode")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("action: must be cancel, reschedule, shift, run-now or dead-letter");
        assertThatThrownBy(() -> bulk.start(BulkFilter.ALL, BulkAction.shift(Duration.ofDays(365L * 8000)), "t"))
                .isInstanceOf(InvalidInputException.class).hasMessageStartingWith("shift: moves the latest matching task");
        assertThatThrownBy(() -> bulk.start(BulkFilter.ALL, BulkAction.shift(Duration.ofDays(-365L * 100)), "t"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("before 1970-01-01T00:00:00Z");
        assertThatThrownBy(() -> BulkFilter.ALL.group("acme").priority(2)).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("priority:");
        assertThatThrownBy(() -> bulk.job("abc123")).isInstanceOf(InvalidInputException.class).hasMessageStartingWith("job: no bulk job 'abc123'");
        assertThat(dump()).isEqualTo(before);
    }

    @Test
    void aRunStoppedBetweenBatchesResumesWithNoTaskActedOnTwice() {
        fill();
        BulkJob job = bulk.start(BulkFilter.ALL, BulkAction.shift(Duration.ofMinutes(7)), "test");
        assertThat(job.total()).isEqualTo(55);
        Map<String, Long> before = waiting();
        AtomicInteger batches = new AtomicInteger();
        BulkJob stopped = bulk.run(job.id(), BulkRun.defaults().batch(4).pause(Duration.ZERO)
                .stopWhen(() -> batches.get() >= 3).onProgress(p -> batches.incrementAndGet()));
        assertThat(stopped.status()).isEqualTo(BulkJob.Status.STOPPED);
        assertThat(stopped.done()).isEqualTo(12);
        assertThat(bulk.job(job.id()).status()).isEqualTo(BulkJob.Status.STOPPED);
        assertThat(bulk.job(job.id()).done()).isEqualTo(12);
        // another process resumes it from what Redis holds
        List<BulkJob> seen = new ArrayList<>();
        BulkJob done;
        try (TestQueue second = TestQueue.open(redis.url(), "bulk", 4)) {
            done = new BulkActions(second.protocol().scope(), WAIT).run(job.id(), BulkRun.defaults().batch(4).pause(Duration.ZERO).onProgress(seen::add));
        }
        assertThat(done.status()).isEqualTo(BulkJob.Status.DONE);
        assertThat(done.done()).isEqualTo(55);
        assertThat(seen).extracting(BulkJob::done).isSorted();
        Map<String, Long> after = waiting();
        Map<String, Long> expected = new HashMap<>();
        before.forEach((id, due) -> expected.put(id, due + Duration.ofMinutes(7).toMillis()));
        assertThat(after).isEqualTo(expected);
        // resuming a finished job does nothing
        assertThat(bulk.run(job.id(), BulkRun.defaults()).done()).isEqualTo(55);
        assertThat(waiting()).isEqualTo(expected);
        assertThat(bulk.jobs(10)).extracting(BulkJob::id).contains(job.id());
    }

    @Test
    void aJobBegunBeforeTheQueueWasUpgradedToProtocol3IsStoppedNotResumedInBuckets() {
        // no grouped tasks: an upgrade refuses them
        List<TaskSpec> orders = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            orders.add(TaskSpec.of("order-" + i).at(base.plus(Duration.ofMinutes(i))));
        }
        q.client().enqueueAll(orders);
        BulkJob job = bulk.start(BulkFilter.ALL.prefix("order-"), BulkAction.shift(Duration.ofMinutes(5)), "test");
        java.util.concurrent.atomic.AtomicInteger batches = new java.util.concurrent.atomic.AtomicInteger();
        BulkJob stopped = bulk.run(job.id(), BulkRun.defaults().batch(5).pause(Duration.ZERO).stopWhen(() -> batches.get() >= 1)
                .onProgress(j -> batches.incrementAndGet()));
        assertThat(stopped.status()).isEqualTo(BulkJob.Status.STOPPED);

        new io.delayq.upgrade.ProtocolUpgrade(q.protocol(), WAIT, Duration.ZERO).run();

        assertThatThrownBy(() -> new BulkActions(q.protocol().scope(), WAIT).run(job.id(), BulkRun.defaults().pause(Duration.ZERO)))
                .isInstanceOf(BulkRefusedException.class).hasMessageContaining("began before queue 'bulk' was upgraded to protocol 3");
        assertThat(bulk.job(job.id()).status()).isEqualTo(BulkJob.Status.STOPPED);
    }
}
