package io.delayq.schedule;

import io.delayq.claim.ClaimedTask;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The planner against a real Redis: revisions, concurrent planners, misfire policies after a pause, edits, removal. */
class SchedulePlannerTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "reports", 4);

    private static final PlanRules RULES = new PlanRules(Duration.ofSeconds(5), Duration.ofSeconds(5), 500);

    private Schedules schedules() {
        return Schedules.of(q.client());
    }

    /** Every task waiting in the queue: id → due time. */
    private Map<String, Long> due() {
        return q.waiting();
    }

    private static List<Long> instants(String cron, long after, long until) {
        return CronTimes.of(cron, "UTC").between(Instant.ofEpochMilli(after), Instant.ofEpochMilli(until), 100_000).stream()
                .map(Instant::toEpochMilli).toList();
    }

    @Test
    void putBumpsTheRevisionOnlyWhenTheDefinitionChanges() {
        CronSchedule s = CronSchedule.of("nightly", "0 2 * * *").timeZone("Europe/Berlin");
        assertThat(schedules().put(s).status()).isEqualTo(PutResult.Status.ADDED);
        assertThat(schedules().put(s)).extracting(PutResult::status, PutResult::revision).containsExactly(PutResult.Status.UNCHANGED, 1L);
        assertThat(schedules().put(s.payload("x"))).extracting(PutResult::status, PutResult::revision).containsExactly(PutResult.Status.CHANGED, 2L);
        assertThat(schedules().pause("nightly")).extracting(PutResult::status, PutResult::revision).containsExactly(PutResult.Status.CHANGED, 3L);
        assertThat(schedules().store().put(s, 2L).status()).isEqualTo(PutResult.Status.CONFLICT);
        assertThat(schedules().get("nightly").orElseThrow().definition().paused()).isTrue();
        assertThat(schedules().get("nightly").orElseThrow().nextFire()).isNull();
        assertThat(schedules().resume("nightly").revision()).isEqualTo(4L);
    }

    @Test
    void aTurnEnqueuesEveryOccurrenceWithinTheHorizonAsATaskWithItsDeterministicId() {
        PutResult put = schedules().put(CronSchedule.of("tick", "* * * * * *").payload("{\"tick\":true}").priority(1));
        long now = q.serverNow();
        SchedulePlanner.Turn turn = schedules().planner(RULES).turn(now);
        List<Long> expected = instants("* * * * * *", put.updatedAt(), now + 5000);
        assertThat(due()).isEqualTo(expected.stream().collect(Collectors.toMap(t -> "sched:tick:1:" + t, t -> t, (a, b) -> a, TreeMap::new)));
        assertThat(turn.enqueued()).isEqualTo(expected.size());
        // a second turn at the same time finds nothing new: the cursor moved
        assertThat(schedules().planner(RULES).turn(now).enqueued()).isZero();
        assertThat(q.client().inspect("sched:tick:1:" + expected.get(0)).rawRecord()).endsWith(":{\"tick\":true}");
    }

    @Test
    void manyPlannersAtOnceWhileTasksAreClaimedFireEveryOccurrenceOnceAndNeverEarly() throws Exception {
        PutResult put = schedules().put(CronSchedule.of("tick", "* * * * * *"));
        ExecutorService pool = Executors.newFixedThreadPool(5);
        AtomicBoolean running = new AtomicBoolean(true);
        Map<String, Long> claimedAt = new ConcurrentHashMap<>();
        List<String> duplicates = new CopyOnWriteArrayList<>();
        for (int p = 0; p < 4; p++) {
            SchedulePlanner planner = schedules().planner(new PlanRules(Duration.ofSeconds(2), Duration.ofSeconds(5), 500));
            pool.submit(() -> {
                while (running.get()) {
                    planner.turn();
                }
                return null;
            });
        }
        pool.submit(() -> {
            while (running.get()) {
                for (int s = 0; s < 4; s++) {
                    var batch = q.claim(s, 100, Duration.ofMinutes(1));
                    for (ClaimedTask t : batch.tasks()) {
                        if (claimedAt.putIfAbsent(t.id(), batch.serverNow()) != null) {
                            duplicates.add(t.id());
                        }
                        q.ack(t);
                    }
                }
                Thread.sleep(20);
            }
            return null;
        });
        long until = put.updatedAt() + 8000;
        await().atMost(Duration.ofSeconds(20)).until(() -> q.serverNow() > until + 500);
        running.set(false);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        List<Long> expected = instants("* * * * * *", put.updatedAt(), until);
        assertThat(duplicates).isEmpty();
        assertThat(claimedAt.keySet()).containsAll(expected.stream().map(t -> "sched:tick:1:" + t).toList());
        claimedAt.forEach((id, at) -> assertThat(at).as("claim time of %s", id).isGreaterThanOrEqualTo(OccurrenceId.parse(id).orElseThrow().epochMillis()));
    }

    private final Set<String> beforePause = new java.util.HashSet<>();

    /** Pauses at Redis' now and resumes; answers the pause point (the cursor). The planner then turns 30 s later. */
    private long pauseAndResume(MisfirePolicy policy, int limit) {
        schedules().put(CronSchedule.of("tick", "* * * * * *").misfire(policy, limit));
        long now = q.serverNow();
        SchedulePlanner planner = schedules().planner(RULES);
        planner.turn(now);
        schedules().pause("tick");
        SchedulePlanner.Turn paused = planner.turn(now + 100);
        long pausedAt = PlanState.parse(schedules().store().state("tick")).cursor();
        // the not-yet-due occurrences of the running revision are cancelled by the pause
        assertThat(due().keySet()).allSatisfy(id -> assertThat(OccurrenceId.parse(id).orElseThrow().epochMillis()).isLessThanOrEqualTo(pausedAt));
        assertThat(paused.cancelled()).isPositive();
        assertThat(planner.turn(now + 20_000).enqueued()).as("nothing is planned while paused").isZero();
        beforePause.addAll(due().keySet());
        schedules().resume("tick");
        return pausedAt;
    }

    private List<Long> dueInstants() {
        return due().keySet().stream().filter(id -> !beforePause.contains(id)).map(id -> OccurrenceId.parse(id).orElseThrow().epochMillis()).sorted().toList();
    }

    @Test
    void resumeWithFireOnceNowFiresTheLatestMissedOccurrenceOnceThenGoesOn() {
        long pausedAt = pauseAndResume(MisfirePolicy.FIRE_ONCE_NOW, 0);
        long now = pausedAt + 30_000;
        SchedulePlanner.Turn turn = schedules().planner(RULES).turn(now);
        List<Long> missed = instants("* * * * * *", pausedAt, now - 5001);
        List<Long> expected = new ArrayList<>(List.of(missed.get(missed.size() - 1)));
        expected.addAll(instants("* * * * * *", missed.get(missed.size() - 1), now + 5000));
        assertThat(dueInstants()).isEqualTo(expected);
        assertThat(turn.missed()).isEqualTo(missed.size() - 1);
        assertThat(schedules().get("tick").orElseThrow().missed()).isEqualTo(missed.size() - 1);
    }

    @Test
    void resumeWithDoNothingSkipsEveryMissedOccurrence() {
        long pausedAt = pauseAndResume(MisfirePolicy.DO_NOTHING, 0);
        long now = pausedAt + 30_000;
        SchedulePlanner.Turn turn = schedules().planner(RULES).turn(now);
        List<Long> missed = instants("* * * * * *", pausedAt, now - 5001);
        assertThat(dueInstants()).isEqualTo(instants("* * * * * *", missed.get(missed.size() - 1), now + 5000));
        assertThat(turn.missed()).isEqualTo(missed.size());
    }

    @Test
    void resumeWithFireAllMissedFiresEachMissedOccurrenceUpToTheLimit() {
        long pausedAt = pauseAndResume(MisfirePolicy.FIRE_ALL_MISSED, 3);
        long now = pausedAt + 30_000;
        SchedulePlanner.Turn turn = schedules().planner(RULES).turn(now);
        List<Long> missed = instants("* * * * * *", pausedAt, now - 5001);
        List<Long> expected = new ArrayList<>(missed.subList(missed.size() - 3, missed.size()));
        expected.addAll(instants("* * * * * *", missed.get(missed.size() - 1), now + 5000));
        assertThat(dueInstants()).isEqualTo(expected);
        assertThat(turn.missed()).isEqualTo(missed.size() - 3);
    }

    @Test
    void anEditReplacesTheFutureOccurrencesAndNeverFiresAnOldOne() {
        schedules().put(CronSchedule.of("tick", "* * * * * *").payload("v1"));
        long now = q.serverNow();
        SchedulePlanner planner = schedules().planner(RULES);
        planner.turn(now);
        PutResult edit = schedules().put(CronSchedule.of("tick", "*/2 * * * * *").payload("v2"));
        SchedulePlanner.Turn turn = planner.turn(q.serverNow());
        assertThat(turn.cancelled()).isPositive();
        Map<String, Long> due = due();
        // no old occurrence after the edit is left, every new one is of revision 2 and after the edit
        assertThat(due.keySet()).filteredOn(id -> id.startsWith("sched:tick:1:"))
                .allSatisfy(id -> assertThat(OccurrenceId.parse(id).orElseThrow().epochMillis()).isLessThanOrEqualTo(edit.updatedAt()));
        assertThat(due.keySet()).filteredOn(id -> id.startsWith("sched:tick:2:")).isNotEmpty()
                .allSatisfy(id -> assertThat(OccurrenceId.parse(id).orElseThrow().epochMillis() % 2000).isZero())
                .allSatisfy(id -> assertThat(OccurrenceId.parse(id).orElseThrow().epochMillis()).isGreaterThan(edit.updatedAt()));
        // one task per instant
        assertThat(due.keySet().stream().map(id -> OccurrenceId.parse(id).orElseThrow().epochMillis()).toList()).doesNotHaveDuplicates();
        assertThat(q.client().inspect(due.keySet().stream().filter(id -> id.startsWith("sched:tick:2:")).findFirst().orElseThrow())
                .rawRecord()).endsWith(":v2");
    }

    @Test
    void removeCancelsThePlannedOccurrencesAndForgetsTheState() {
        schedules().put(CronSchedule.of("tick", "* * * * * *"));
        SchedulePlanner planner = schedules().planner(RULES);
        long now = q.serverNow();
        planner.turn(now);
        assertThat(due()).isNotEmpty();
        assertThat(schedules().remove("tick")).isTrue();
        planner.turn(now);
        assertThat(due().keySet()).allSatisfy(id -> assertThat(OccurrenceId.parse(id).orElseThrow().epochMillis()).isLessThanOrEqualTo(now));
        assertThat(schedules().store().states()).isEmpty();
        assertThat(schedules().list()).isEmpty();
    }

    @Test
    void statusShowsNextAndLastFiringAndTheOutcomeOfTheLastOccurrence() {
        PutResult put = schedules().put(CronSchedule.of("tick", "* * * * * *"));
        schedules().planner(RULES).turn();
        long first = instants("* * * * * *", put.updatedAt(), put.updatedAt() + 1000).get(0);
        String id = "sched:tick:1:" + first;
        await().atMost(Duration.ofSeconds(5)).until(() -> q.serverNow() >= first);
        ScheduleStatus pending = schedules().list().get(0);
        assertThat(pending.lastTaskId()).isNotNull();
        ClaimedTask t = IntStream.range(0, 4).mapToObj(s -> q.claim(s, 100, Duration.ofMinutes(1)).tasks()).flatMap(List::stream)
                .filter(c -> c.id().equals(id)).findFirst().orElseThrow();
        q.ack(t);
        ScheduleStatus s = schedules().get("tick").orElseThrow();
        assertThat(s.nextFire()).isAfter(Instant.ofEpochMilli(first));
        assertThat(s.planned()).isTrue();
        if (s.lastTaskId().equals(id)) {
            assertThat(s.lastOutcome()).isEqualTo(ScheduleStatus.Outcome.SUCCEEDED);
        } else {
            // a later occurrence became due meanwhile and waits for a claim
            assertThat(s.lastOutcome()).isEqualTo(ScheduleStatus.Outcome.PENDING);
        }
        assertThat(Set.of(ScheduleStatus.Outcome.SUCCEEDED, ScheduleStatus.Outcome.PENDING)).contains(s.lastOutcome());
    }
}
