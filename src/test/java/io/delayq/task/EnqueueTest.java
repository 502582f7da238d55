package io.delayq.task;

import io.delayq.claim.ClaimedTask;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.task.EnqueueResult.Status;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import io.lettuce.core.ScoredValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.delayq.testing.TestQueue.get;
import static io.delayq.testing.TestQueue.sync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** enqueue.lua: new tasks, the three duplicate policies against scheduled, in-flight and dead targets, batches. */
class EnqueueTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static final Instant T1 = Instant.parse("2100-01-01T00:00:00Z");
    private static final Instant T2 = Instant.parse("2100-01-02T00:00:00Z");
    private static final Instant T0 = Instant.parse("2099-12-31T00:00:00Z");

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "orders", 1);

    private TaskRecord record(String id) {
        return TaskRecord.decode(q.storedRecord(id));
    }

    private ClaimedTask inFlight(String id) {
        q.client().enqueue(TaskSpec.of(id).payload("old"));
        ClaimedTask t = q.claim(0, 1, Duration.ofMinutes(1)).tasks().get(0);
        assertThat(t.id()).isEqualTo(id);
        return t;
    }

    private void dead(String id) {
        ClaimedTask t = inFlight(id);
        q.kill(t, "boom", DeadLetterPolicy.DEFAULT);
        assertThat(q.client().inspect(id).state()).isEqualTo(TaskInfo.State.DEAD);
    }

    /** The time the wake-up marker names for a task due at {@code due} that heads its level: that due time. */
    long markerFor(Instant due) {
        return due.toEpochMilli();
    }

    private void assertMarkedFor(Instant due) {
        assertThat(q.zrange(q.keys(0).marker())).containsExactly(ScoredValue.just(markerFor(due), "next"));
    }

    @Test
    void newTaskIsStoredAsACompactRecordAndAScore() {
        long before = q.serverNow();
        EnqueueResult r = q.client().enqueue(TaskSpec.of("order-8812").at(T1).payload("{\"action\":\"cancel\"}"));
        assertThat(r).isEqualTo(new EnqueueResult("order-8812", Status.ADDED, T1.toEpochMilli()));
        assertThat(q.waitingAt(0, 0)).containsExactly(entry("order-8812", T1.toEpochMilli()));
        TaskRecord rec = record("order-8812");
        assertThat(rec.payload()).isEqualTo("{\"action\":\"cancel\"}");
        assertThat(rec.priority()).isNull();
        assertThat(rec.enqueuedAt()).isBetween(before - 1000, System.currentTimeMillis() + 1000);
        // the marker wakes workers: it holds the earliest new due time
        assertMarkedFor(T1);
        q.client().enqueue(TaskSpec.of("later").at(T2));
        assertMarkedFor(T1);
        q.client().enqueue(TaskSpec.of("sooner").at(T0));
        assertMarkedFor(T0);
    }

    @Test
    void markerFollowsTheHeadOfTheTaskOwnLevel() {
        q.client().enqueue(TaskSpec.of("normal").at(T1));
        get(q.redis().del(q.keys(0).marker()));            // as a worker's BZPOPMIN leaves it
        // another level's head does not count: a high-priority task after T1 still marks (it heads its own level)
        q.client().enqueue(TaskSpec.of("vip").at(T2).priority(Priority.HIGH));
        assertMarkedFor(T2);
        get(q.redis().del(q.keys(0).marker()));
        q.client().enqueue(TaskSpec.of("vip-later").at(T2.plusSeconds(1)).priority(Priority.HIGH));
        q.client().enqueue(TaskSpec.of("normal-later").at(T2));
        assertThat(q.zrange(q.keys(0).marker())).isEmpty();
        // a tie with the head: one task alone marks when its id sorts first among equal due times (ZRANK 0: a
        // wake-up the worker did not need), not when it sorts after the head
        q.client().enqueue(TaskSpec.of("normal-tie-z").at(T1));
        assertThat(q.zrange(q.keys(0).marker())).isEmpty();
        q.client().enqueue(TaskSpec.of("a-tie").at(T1));
        assertMarkedFor(T1);
    }

    @Test
    void batchMarksTheEarliestTaskThatPrecedesTheHeadsTheCallBeganWith() {
        q.client().enqueue(TaskSpec.of("head").at(T1));
        get(q.redis().del(q.keys(0).marker()));
        q.client().enqueueAll(List.of(TaskSpec.of("b1").at(T2), TaskSpec.of("b2").at(T1.minusSeconds(5)),
                TaskSpec.of("b3").at(T1.minusSeconds(9)), TaskSpec.of("b4").at(T1.minusSeconds(7))));
        assertMarkedFor(T1.minusSeconds(9));
        get(q.redis().del(q.keys(0).marker()));
        q.client().enqueueAll(List.of(TaskSpec.of("c1").at(T2), TaskSpec.of("c2").at(T1)));
        assertThat(q.zrange(q.keys(0).marker())).isEmpty();
    }

    /**
     * enqueue.lua adds new ids the short way until the first task that needs more (an existing id, a grouped
     * record); from there on it goes the general way, task by task in input order, and still adds later new ids.
     */
    @Test
    void batchKeepsInputOrderAcrossTheShortAndTheGeneralWay() {
        q.client().enqueue(TaskSpec.of("old").at(T2).payload("first"));
        get(q.redis().del(q.keys(0).marker()));
        List<EnqueueResult> r = q.client().enqueueAll(List.of(
                TaskSpec.of("n1").at(T1),                                   // short way (JSON record, no group)
                TaskSpec.of("g1").at(T1).group("tenant-a"),                 // a group: the general way
                TaskSpec.of("n2").at(T1.minusSeconds(3)).payload("{\"group\":\"not an option\"}"),
                TaskSpec.of("old").at(T0).payload("second"),                // exists: duplicate
                TaskSpec.of("n1").at(T0),                                   // added earlier in this call
                TaskSpec.of("n3").at(T2.plusSeconds(1)).payload("p").expiresAt(T2.plusSeconds(60))));
        assertThat(r).extracting(EnqueueResult::status).containsExactly(
                Status.ADDED, Status.ADDED, Status.ADDED, Status.DUPLICATE, Status.DUPLICATE, Status.ADDED);
        assertThat(r.get(3).dueAt()).isEqualTo(T2.toEpochMilli());
        assertThat(r.get(4).dueAt()).isEqualTo(T1.toEpochMilli());
        assertThat(q.waitingAt(0, 0).entrySet().stream().sorted(java.util.Map.Entry.comparingByValue()).map(java.util.Map.Entry::getKey))
                .containsExactly("n2", "n1", "old", "n3");
        assertThat(q.waitingInGroup(0, "tenant-a")).containsExactly(java.util.Map.entry("g1", T1.toEpochMilli()));
        assertThat(record("old").payload()).isEqualTo("first");
        assertThat(record("n2").payload()).isEqualTo("{\"group\":\"not an option\"}");
        // the earliest new task before the level's head (T2) the call began with
        assertMarkedFor(T1.minusSeconds(3));
    }

    @Test
    void taskWithoutPayloadHasAnEmptyRecord() {
        q.client().enqueue(TaskSpec.of("a").at(T1));
        assertThat(q.storedRecord("a")).startsWith("{\"enqueuedAt\":").doesNotContain("payload");
    }

    @Test
    void priorityGoesToItsOwnDueSetWithTheRealDueTime() {
        q.client().enqueue(TaskSpec.of("vip").at(T1).priority(Priority.HIGHEST));
        q.client().enqueue(TaskSpec.of("high").at(T1).priority(Priority.HIGH));
        assertThat(q.waitingAt(0, 2)).containsExactly(entry("vip", T1.toEpochMilli()));
        assertThat(q.waitingAt(0, 1)).containsExactly(entry("high", T1.toEpochMilli()));
        assertThat(q.waitingAt(0, 0)).isEmpty();
        assertThat(record("vip").priority()).isEqualTo(2);
        assertThat(q.client().inspect("vip").priority()).isEqualTo(2);
    }

    @Test
    void rejectIsTheDefault() {
        assertThat(q.client().enqueue(TaskSpec.of("a").at(T1).payload("first")).status()).isEqualTo(Status.ADDED);
        EnqueueResult again = q.client().enqueue(TaskSpec.of("a").at(T0).payload("second"));
        assertThat(again).isEqualTo(new EnqueueResult("a", Status.DUPLICATE, T1.toEpochMilli()));
        assertThat(record("a").payload()).isEqualTo("first");
        assertThat(q.waitingAt(0, 0)).containsExactly(entry("a", T1.toEpochMilli()));
    }

    @Test
    void rejectOfInFlightAndDeadTasksLeavesThemAlone() {
        ClaimedTask running = inFlight("running");
        assertThat(q.client().enqueue(TaskSpec.of("running").payload("new"), DuplicatePolicy.REJECT))
                .isEqualTo(new EnqueueResult("running", Status.DUPLICATE, running.token()));
        assertThat(q.client().inspect("running").state()).isEqualTo(TaskInfo.State.IN_FLIGHT);
        dead("gone");
        assertThat(q.client().enqueue(TaskSpec.of("gone")).status()).isEqualTo(Status.DUPLICATE);
        assertThat(q.client().inspect("gone").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.ack(running)).containsExactly(true);
    }

    @Test
    void replaceOfAScheduledTaskChangesTimeRecordAndPriority() {
        q.client().enqueue(TaskSpec.of("a").at(T1).payload("old").priority(Priority.HIGH));
        EnqueueResult r = q.client().enqueue(TaskSpec.of("a").at(T2).payload("new"), DuplicatePolicy.REPLACE);
        assertThat(r).isEqualTo(new EnqueueResult("a", Status.REPLACED, T2.toEpochMilli()));
        assertThat(q.waitingAt(0, 1)).isEmpty();
        assertThat(q.waitingAt(0, 0)).containsExactly(entry("a", T2.toEpochMilli()));
        assertThat(record("a").payload()).isEqualTo("new");
        assertThat(record("a").priority()).isNull();
    }

    @Test
    void replaceOfARetriedTaskStartsItsAttemptsAfresh() {
        ClaimedTask t = inFlight("a");
        q.retry(t, Duration.ofHours(1), "flaky", 5);
        assertThat(q.client().inspect("a").attempts()).isEqualTo(1);
        assertThat(q.client().enqueue(TaskSpec.of("a").at(T1), DuplicatePolicy.REPLACE).status()).isEqualTo(Status.REPLACED);
        TaskInfo info = q.client().inspect("a");
        assertThat(info.attempts()).isZero();
        assertThat(info.lastError()).isNull();
        assertThat(info.score()).isEqualTo(T1.toEpochMilli());
    }

    @Test
    void replaceOfAnInFlightTaskIsRefused() {
        ClaimedTask running = inFlight("a");
        EnqueueResult r = q.client().enqueue(TaskSpec.of("a").at(T1).payload("new"), DuplicatePolicy.REPLACE);
        assertThat(r).isEqualTo(new EnqueueResult("a", Status.INFLIGHT, running.token()));
        assertThat(record("a").payload()).isEqualTo("old");
        assertThat(q.waitingAt(0, 0)).isEmpty();
        assertThat(q.inFlight(0)).containsExactly(entry("a", running.token()));
        assertThat(q.ack(running)).containsExactly(true);
    }

    @Test
    void replaceOfADeadTaskRevivesIt() {
        dead("a");
        EnqueueResult r = q.client().enqueue(TaskSpec.of("a").at(T1).payload("new"), DuplicatePolicy.REPLACE);
        assertThat(r.status()).isEqualTo(Status.REPLACED);
        assertThat(q.zrange(q.keys(0).dead())).isEmpty();
        TaskInfo info = q.client().inspect("a");
        assertThat(info.state()).isEqualTo(TaskInfo.State.SCHEDULED);
        assertThat(info.attempts()).isZero();
        assertThat(info.lastError()).isNull();
        assertThat(TaskRecord.decode(info.rawRecord()).payload()).isEqualTo("new");
    }

    @Test
    void replaceOfAnUnknownIdAdds() {
        assertThat(q.client().enqueue(TaskSpec.of("a").at(T1), DuplicatePolicy.REPLACE).status()).isEqualTo(Status.ADDED);
    }

    @Test
    void keepEarlierMovesToTheEarlierTimeAndKeepsTheRecord() {
        q.client().enqueue(TaskSpec.of("a").at(T1).payload("first").priority(Priority.HIGH));
        assertThat(q.client().enqueue(TaskSpec.of("a").at(T2).payload("x"), DuplicatePolicy.KEEP_EARLIER))
                .isEqualTo(new EnqueueResult("a", Status.KEPT, T1.toEpochMilli()));
        assertThat(q.client().enqueue(TaskSpec.of("a").at(T0).payload("y"), DuplicatePolicy.KEEP_EARLIER))
                .isEqualTo(new EnqueueResult("a", Status.EARLIER, T0.toEpochMilli()));
        assertThat(q.waitingAt(0, 1)).containsExactly(entry("a", T0.toEpochMilli()));
        assertThat(record("a").payload()).isEqualTo("first");
        // the marker learns of the earlier time
        assertMarkedFor(T0);
    }

    @Test
    void keepEarlierLeavesInFlightAndDeadTasksAlone() {
        ClaimedTask running = inFlight("running");
        assertThat(q.client().enqueue(TaskSpec.of("running").at(Instant.EPOCH), DuplicatePolicy.KEEP_EARLIER))
                .isEqualTo(new EnqueueResult("running", Status.INFLIGHT, running.token()));
        dead("gone");
        EnqueueResult r = q.client().enqueue(TaskSpec.of("gone").at(Instant.EPOCH), DuplicatePolicy.KEEP_EARLIER);
        assertThat(r.status()).isEqualTo(Status.DEAD);
        assertThat(r.dueAt()).isEqualTo(q.client().inspect("gone").score());
        assertThat(q.client().inspect("gone").state()).isEqualTo(TaskInfo.State.DEAD);
        assertThat(q.client().enqueue(TaskSpec.of("new").at(T1), DuplicatePolicy.KEEP_EARLIER).status()).isEqualTo(Status.ADDED);
    }

    @Test
    void batchAnswersInInputOrderAcrossShardsAndChunks() {
        try (TestQueue many = TestQueue.open(redis.url(), "many", 8)) {
            many.client().enqueue(TaskSpec.of("t-7").at(T1));
            List<TaskSpec> batch = new ArrayList<>();
            for (int i = 0; i < 1200; i++) {              // > 500 per shard on some shards: several script calls
                batch.add(TaskSpec.of("t-" + i).at(T2).payload("p" + i));
            }
            batch.add(TaskSpec.of("t-3").at(T2));          // the same id twice in one batch
            List<EnqueueResult> results = many.client().enqueueAll(batch);
            assertThat(results).hasSize(1201);
            for (int i = 0; i < 1200; i++) {
                assertThat(results.get(i).id()).isEqualTo("t-" + i);
                assertThat(results.get(i).status()).isEqualTo(i == 7 ? Status.DUPLICATE : Status.ADDED);
            }
            assertThat(results.get(1200)).isEqualTo(new EnqueueResult("t-3", Status.DUPLICATE, T2.toEpochMilli()));
            assertThat(many.client().stats().scheduled()).isEqualTo(1200);
        }
    }

    @Test
    void asyncFormAnswersTheSame() {
        EnqueueResult r = sync(q.client().async().enqueue(TaskSpec.of("a").at(T1)));
        assertThat(r.status()).isEqualTo(Status.ADDED);
        assertThat(sync(q.client().async().enqueue(TaskSpec.of("a").at(T0), DuplicatePolicy.KEEP_EARLIER)).status())
                .isEqualTo(Status.EARLIER);
        assertThat(sync(q.client().async().enqueueAll(List.of(TaskSpec.of("a"), TaskSpec.of("b")), DuplicatePolicy.REJECT)))
                .extracting(EnqueueResult::status).containsExactly(Status.DUPLICATE, Status.ADDED);
    }
}
