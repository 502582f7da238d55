package io.delayq.schedule;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Crash safety of the occurrences a planner fires at once (due now, late, misfired), against a real
 * Redis: the planner that won its turn records them as owed before enqueuing them; one that halts
 * right there (the hook stops the real code path between the two steps) leaves the debt to the next
 * planner, which fires each occurrence exactly once — also when the halted one wakes up afterwards and
 * enqueues them again after they fired and were acked.
 */
class OwedOccurrenceTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "owed", 4);

    private static final PlanRules RULES = new PlanRules(Duration.ofSeconds(5), Duration.ofSeconds(5), 500);
    private static final IndexRules SHORT_LEASE = IndexRules.defaults().lease(Duration.ofMillis(500));

    @Test
    void aPlannerHaltedBetweenRecordingAndEnqueuingItsDueOccurrencesLosesNoneAndFiresNoneTwice() throws Exception {
        Schedules schedules = Schedules.of(q.client());
        SchedulePlanner next = schedules.planner(RULES, SHORT_LEASE);
        next.turn(); // its first (full) turn is behind it: it finds the schedule through the index alone

        schedules.put(CronSchedule.of("tick", "* * * * * *"));
        CountDownLatch halted = new CountDownLatch(1);
        CountDownLatch wake = new CountDownLatch(1);
        List<Long> owed = new CopyOnWriteArrayList<>();
        SchedulePlanner crashing = schedules.planner(RULES, SHORT_LEASE).onOwedRecorded((name, instants) -> {
            owed.addAll(instants);
            halted.countDown();
            try {
                wake.await(); // the planner stops here, after its compare-and-set, before its enqueue
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long firstNow = q.serverNow();
        CompletableFuture<SchedulePlanner.Turn> stalled = CompletableFuture.supplyAsync(() -> crashing.turn(firstNow));
        assertThat(halted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(owed).as("an every-second schedule has an occurrence within a second of now").isNotEmpty();
        List<String> owedIds = owed.stream().map(at -> new OccurrenceId("tick", 1, at).id()).toList();
        assertThat(dueIds()).as("recorded as owed, not enqueued yet").doesNotContainAnyElementsOf(owedIds);
        assertThat(PlanState.parse(schedules.store().state("tick")).owed()).containsExactlyElementsOf(owed);

        // the next planner takes the schedule once the halted one's lease on it ends, and pays the debt
        SchedulePlanner.Turn paid = next.turn(firstNow + SHORT_LEASE.lease().toMillis() + 1);
        assertThat(paid.results()).containsKey("tick");
        assertThat(dueIds()).containsAll(owedIds);
        assertThat(PlanState.parse(schedules.store().state("tick")).owed()).isEmpty();

        // each owed occurrence fires (claimed and acked) ...
        Map<String, Integer> claims = new ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            claimAndAck(claims);
            return claims.keySet().containsAll(owedIds);
        });
        // ... and the halted planner, woken after that, enqueues them again: duplicates, nothing added
        wake.countDown();
        stalled.get(10, TimeUnit.SECONDS);
        assertThat(dueIds()).as("the woken planner added none of them again").doesNotContainAnyElementsOf(owedIds);
        claimAndAck(claims);
        assertThat(owedIds).allSatisfy(id -> assertThat(claims).containsEntry(id, 1));
    }

    @Test
    void anOccurrenceAddedAheadByAPlannerThatDiedBeforeRecordingItFiresOnceThoughTheNextPlannerFindsItOwed() throws Exception {
        Schedules schedules = Schedules.of(q.client());
        SchedulePlanner next = schedules.planner(RULES, SHORT_LEASE);
        next.turn(); // its first (full) turn is behind it: it takes the schedule through the index and its lease

        schedules.put(CronSchedule.of("tick", "* * * * * *"));
        CountDownLatch halted = new CountDownLatch(1);
        CountDownLatch wake = new CountDownLatch(1);
        List<String> ahead = new CopyOnWriteArrayList<>();
        SchedulePlanner dying = schedules.planner(RULES, SHORT_LEASE).onAheadEnqueued((name, added) -> {
            ahead.addAll(added);
            halted.countDown();
            try {
                wake.await(); // the planner stops here, after adding occurrences ahead, before recording its turn
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<SchedulePlanner.Turn> stalled = CompletableFuture.supplyAsync(() -> dying.turn(q.serverNow()));
        assertThat(halted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ahead).as("a horizon of 5 s holds occurrences of an every-second schedule").isNotEmpty();
        String first = ahead.get(0);

        // the first occurrence it added fires: claimed when due, and acked; the schedule's state still stands before it
        Map<String, Integer> claims = new ConcurrentHashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            claimAndAck(claims);
            return claims.containsKey(first);
        });
        long afterLease = q.serverNow() + SHORT_LEASE.lease().toMillis() + 1;
        await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() > afterLease);

        // the next planner takes the schedule after the dead one's lease and finds that occurrence late: owed
        SchedulePlanner.Turn paid = next.turn(q.serverNow());
        assertThat(paid.results()).containsKey("tick");
        assertThat(dueIds()).as("the owed occurrence that already fired is not added again").doesNotContain(first);
        await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10)).until(() -> {
            claimAndAck(claims);
            return claims.keySet().containsAll(ahead);
        });
        assertThat(claims).as("every occurrence the dead planner added fired once").allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        wake.countDown();
        stalled.get(10, TimeUnit.SECONDS);
    }

    @Test
    void futureOnceRemembersAnIdItAddedButNotOneThatWasPast() {
        TaskSpec ahead = TaskSpec.of("sched:ahead:1:1").at(Instant.ofEpochMilli(q.serverNow() + 200));
        assertThat(q.client().enqueueAll(List.of(ahead), DuplicatePolicy.FUTURE_ONCE)).extracting(EnqueueResult::status)
                .containsExactly(EnqueueResult.Status.ADDED);
        int shard = q.shardOf(ahead.id());
        List<ClaimedTask> claimed = new ArrayList<>();
        await().atMost(Duration.ofSeconds(5)).until(() -> claimed.addAll(q.claim(shard, 10, Duration.ofMinutes(1)).tasks()));
        q.ack(claimed.toArray(ClaimedTask[]::new));
        assertThat(q.client().enqueueAll(List.of(ahead.at(Instant.ofEpochMilli(q.serverNow() - 10))), DuplicatePolicy.ONCE))
                .as("owed after it fired").extracting(EnqueueResult::status).containsExactly(EnqueueResult.Status.DUPLICATE);

        TaskSpec past = TaskSpec.of("sched:past:1:1").at(Instant.ofEpochMilli(q.serverNow() - 1000));
        assertThat(q.client().enqueueAll(List.of(past), DuplicatePolicy.FUTURE_ONCE)).extracting(EnqueueResult::status)
                .containsExactly(EnqueueResult.Status.PAST);
        assertThat(q.client().enqueueAll(List.of(past), DuplicatePolicy.ONCE)).as("a past one was not added, so it may still fire")
                .extracting(EnqueueResult::status).containsExactly(EnqueueResult.Status.ADDED);
    }

    @Test
    void onceRefusesAnIdItAddedBeforeEvenAfterTheTaskWasAckedAndIsGone() {
        TaskSpec task = TaskSpec.of("sched:once:1:1").at(Instant.ofEpochMilli(q.serverNow() - 1000));
        assertThat(q.client().enqueueAll(List.of(task), DuplicatePolicy.ONCE)).extracting(EnqueueResult::status)
                .containsExactly(EnqueueResult.Status.ADDED);
        int shard = q.shardOf(task.id());
        List<ClaimedTask> claimed = q.claim(shard, 10, Duration.ofMinutes(1)).tasks();
        assertThat(claimed).extracting(ClaimedTask::id).containsExactly(task.id());
        q.ack(claimed.toArray(ClaimedTask[]::new));
        assertThat(q.client().enqueueAll(List.of(task), DuplicatePolicy.ONCE)).extracting(EnqueueResult::status)
                .containsExactly(EnqueueResult.Status.DUPLICATE);
        assertThat(q.claim(shard, 10, Duration.ofMinutes(1)).tasks()).isEmpty();
        assertThat(q.client().enqueueAll(List.of(task), DuplicatePolicy.REJECT)).as("other policies do not look at the once-set")
                .extracting(EnqueueResult::status).containsExactly(EnqueueResult.Status.ADDED);
    }

    private void claimAndAck(Map<String, Integer> claims) {
        for (int s = 0; s < 4; s++) {
            List<ClaimedTask> batch = q.claim(s, 100, Duration.ofMinutes(1)).tasks();
            batch.forEach(t -> claims.merge(t.id(), 1, Integer::sum));
            if (!batch.isEmpty()) {
                q.ack(batch.toArray(ClaimedTask[]::new));
            }
        }
    }

    private Set<String> dueIds() {
        return q.waiting().keySet();
    }
}
