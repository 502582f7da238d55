package io.delayq.schedule;

import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;

import static io.delayq.testing.TestQueue.get;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index of next planning times against a real Redis: a turn plans only the schedules due for
 * planning; an edit, pause, resume or remove makes a schedule due at once; an index that is missing
 * (data written before it) is rebuilt by the next turn.
 */
class ScheduleIndexTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "idx", 4);

    private static final PlanRules RULES = new PlanRules(Duration.ofSeconds(5), Duration.ofSeconds(5), 500);
    /** 03:00 UTC once a year: never due for planning while a test runs, whatever the day. */
    private static final String RARE = "0 3 1 1 *";

    private Schedules schedules() {
        return Schedules.of(q.client());
    }

    private Map<String, Long> index() {
        return schedules().store().index();
    }

    @Test
    void aTurnPlansOnlyTheSchedulesDueForPlanning() {
        for (int i = 0; i < 40; i++) {
            schedules().put(CronSchedule.of("rare-" + i, RARE));
        }
        schedules().put(CronSchedule.of("tick", "* * * * * *"));
        SchedulePlanner planner = schedules().planner(RULES);
        long now = q.serverNow();
        SchedulePlanner.Turn first = planner.turn(now);
        assertThat(first.full()).as("a planner's first turn reads every schedule").isTrue();
        assertThat(first.schedules()).isEqualTo(41);
        assertThat(index()).hasSize(41);
        long tickNext = index().get("tick");
        assertThat(tickNext).as("tick: its next occurrence after the horizon, less the horizon")
                .isGreaterThan(now).isLessThanOrEqualTo(now + 1000);
        assertThat(index()).allSatisfy((name, at) -> {
            if (!name.equals("tick")) {
                assertThat(at).as("a rare schedule waits for maxIdle").isEqualTo(now + IndexRules.defaults().maxIdle().toMillis());
            }
        });

        SchedulePlanner.Turn second = planner.turn(now + 2000);
        assertThat(second.full()).isFalse();
        assertThat(second.schedules()).as("only tick was due for planning").isEqualTo(1);
        assertThat(second.results().keySet()).containsExactly("tick");
        assertThat(second.enqueued()).isPositive();
        assertThat(index().get("tick")).isGreaterThan(now + 2000);

        assertThat(planner.turn(now + 2000).schedules()).as("nothing due again at the same instant").isZero();
    }

    @Test
    void anEditAPauseAResumeAndARemoveAreDueForPlanningAtOnce() {
        schedules().put(CronSchedule.of("nightly", RARE));
        SchedulePlanner planner = schedules().planner(RULES);
        long now = q.serverNow();
        planner.turn(now);
        assertThat(planner.turn(now).schedules()).isZero();

        PutResult edit = schedules().put(CronSchedule.of("nightly", "* * * * * *"));
        assertThat(index()).containsEntry("nightly", 0L);
        SchedulePlanner.Turn afterEdit = planner.turn(now);
        assertThat(afterEdit.results().keySet()).containsExactly("nightly");
        assertThat(PlanState.parse(schedules().store().state("nightly")).revision()).isEqualTo(edit.revision());
        assertThat(afterEdit.enqueued()).as("the edited cron's occurrences are planned in the same turn").isPositive();

        schedules().pause("nightly");
        assertThat(index()).containsEntry("nightly", 0L);
        SchedulePlanner.Turn afterPause = planner.turn(now);
        assertThat(afterPause.schedules()).isEqualTo(1);
        assertThat(afterPause.cancelled()).as("the paused revision's occurrences are cancelled").isPositive();
        assertThat(index().get("nightly")).as("paused: looked at again after maxIdle").isEqualTo(now + IndexRules.defaults().maxIdle().toMillis());

        schedules().resume("nightly");
        long later = q.serverNow() + 100;
        SchedulePlanner.Turn afterResume = planner.turn(later);
        assertThat(afterResume.schedules()).isEqualTo(1);
        assertThat(afterResume.enqueued()).isPositive();

        schedules().remove("nightly");
        SchedulePlanner.Turn afterRemove = planner.turn(later);
        assertThat(afterRemove.gone()).containsExactly("nightly");
        assertThat(index()).as("a retired schedule leaves the index").isEmpty();
        assertThat(schedules().store().states()).isEmpty();
    }

    @Test
    void anIndexWrittenByNoVersionOrLostIsRebuiltByTheNextTurn() {
        for (int i = 0; i < 5; i++) {
            schedules().put(CronSchedule.of("s" + i, "* * * * * *"));
        }
        SchedulePlanner planner = schedules().planner(RULES);
        long now = q.serverNow();
        planner.turn(now);
        assertThat(planner.turn(now + 100).full()).isFalse();
        Map<String, Long> before = index();

        // what a queue planned by a version before the index looks like: definitions and states, no index
        get(q.redis().del(schedules().store().keys().index()));
        SchedulePlanner.Turn rebuilt = planner.turn(now + 100);
        assertThat(rebuilt.full()).as("a planner that finds the index short reads every schedule").isTrue();
        assertThat(rebuilt.enqueued()).as("nothing new to enqueue: the states were current").isZero();
        assertThat(index()).isEqualTo(before);
        assertThat(planner.turn(now + 100).full()).isFalse();

        // a fresh planner (a worker that just started) reads everything once, and rewrites nothing that is current
        SchedulePlanner fresh = schedules().planner(RULES);
        assertThat(fresh.turn(now + 100).full()).isTrue();
        assertThat(index()).isEqualTo(before);
    }

    @Test
    void aScheduleTakenByOnePlannerIsNotTakenByAnotherUntilItsLeaseEnds() {
        schedules().put(CronSchedule.of("rare", RARE));
        ScheduleStore store = schedules().store();
        long now = q.serverNow();
        assertThat(store.take(now, 10, now + 30_000)).containsExactly("rare");
        assertThat(store.take(now, 10, now + 30_000)).isEmpty();
        assertThat(store.take(now + 30_000, 10, now + 60_000)).as("its planner died: taken again after the lease").containsExactly("rare");
    }
}
