package io.delayq.schedule;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The planner's decisions as pure functions: no Redis, fixed instants. */
class PlanRulesTest {
    private static final PlanRules RULES = new PlanRules(Duration.ofSeconds(10), Duration.ofSeconds(5), 500);
    private static final long T = Instant.parse("2027-01-01T00:00:00Z").toEpochMilli();

    private static StoredSchedule stored(long revision, long updatedAt, CronSchedule s) {
        return StoredSchedule.parse(revision + "|" + updatedAt + "|" + s.toJson());
    }

    @Test
    void onTimeOccurrencesAreEnqueuedAheadAndTheCursorMovesToTheLastOne() {
        StoredSchedule def = stored(1, T, CronSchedule.of("tick", "*/2 * * * * *"));
        PlanRules.Plan p = RULES.plan(def, PlanRules.fresh(def), T).orElseThrow();
        assertThat(p.ahead()).containsExactly(T + 2000, T + 4000, T + 6000, T + 8000, T + 10_000);
        assertThat(p.fireNow()).isEmpty();
        assertThat(p.next().cursor()).isEqualTo(T + 10_000);
        assertThat(RULES.plan(def, p.next(), T)).as("nothing new at the same now").isEmpty();
    }

    @Test
    void eachMisfirePolicyAfterThirtySecondsWithoutAPlanner() {
        for (var c : List.of(
                new Object[]{MisfirePolicy.FIRE_ONCE_NOW, 1, List.of(T + 24_000)},
                new Object[]{MisfirePolicy.DO_NOTHING, 1, List.of()},
                new Object[]{MisfirePolicy.FIRE_ALL_MISSED, 3, List.of(T + 22_000, T + 23_000, T + 24_000)})) {
            MisfirePolicy policy = (MisfirePolicy) c[0];
            StoredSchedule def = stored(1, T, CronSchedule.of("tick", "* * * * * *").misfire(policy, (int) c[1]));
            long now = T + 30_000;
            PlanRules.Plan p = RULES.plan(def, PlanRules.fresh(def), now).orElseThrow();
            // missed: T+1 s … T+24 s (older than the 5 s threshold); late: T+25 s … T+30 s; then up to now + 1 s
            List<Long> late = List.of(T + 25_000, T + 26_000, T + 27_000, T + 28_000, T + 29_000, T + 30_000, T + 31_000);
            @SuppressWarnings("unchecked") List<Long> fromMissed = (List<Long>) c[2];
            assertThat(p.fireNow()).as(policy.wire()).containsExactlyElementsOf(concat(fromMissed, late));
            assertThat(p.missed()).as(policy.wire()).isEqualTo(24 - fromMissed.size());
            assertThat(p.late()).as(policy.wire()).isEqualTo(5);
            assertThat(p.ahead()).as(policy.wire()).startsWith(T + 32_000).endsWith(T + 40_000);
        }
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    @Test
    void aPausedScheduleIsNotPlannedAndResumingKeepsThePausePointSoTheMisfirePolicyDecides() {
        StoredSchedule running = stored(1, T, CronSchedule.of("tick", "* * * * * *"));
        PlanState planned = RULES.plan(running, PlanRules.fresh(running), T).orElseThrow().next();
        StoredSchedule paused = stored(2, T + 2500, CronSchedule.of("tick", "* * * * * *").paused(true));
        assertThat(RULES.retireCandidates(planned, paused.updatedAt())).containsExactly(T + 3000, T + 4000, T + 5000, T + 6000,
                T + 7000, T + 8000, T + 9000, T + 10_000);
        PlanState afterPause = RULES.retired(planned, paused, -1);
        assertThat(afterPause.cursor()).isEqualTo(T + 2500);
        assertThat(RULES.plan(paused, afterPause, T + 60_000)).isEmpty();

        StoredSchedule resumed = stored(3, T + 60_000, CronSchedule.of("tick", "* * * * * *"));
        PlanState afterResume = RULES.retired(afterPause, resumed, -1);
        assertThat(afterResume.cursor()).as("the pause point, not the resume").isEqualTo(T + 2500);
        PlanRules.Plan p = RULES.plan(resumed, afterResume, T + 60_000).orElseThrow();
        assertThat(p.fireNow()).startsWith(T + 54_000); // fireOnceNow: the latest missed one
        assertThat(p.missed()).isEqualTo(51); // T+3 s … T+54 s missed, one of them fired
    }

    @Test
    void anEditStartsAfterTheChangeOrAfterTheLatestOldOccurrenceThatRan() {
        StoredSchedule v1 = stored(1, T, CronSchedule.of("tick", "* * * * * *"));
        PlanState planned = RULES.plan(v1, PlanRules.fresh(v1), T).orElseThrow().next();
        StoredSchedule v2 = stored(2, T + 3500, CronSchedule.of("tick", "*/5 * * * * *"));
        assertThat(RULES.retired(planned, v2, -1).cursor()).isEqualTo(T + 3500);
        PlanState afterRunning = RULES.retired(planned, v2, T + 4000);
        assertThat(afterRunning.cursor()).isEqualTo(T + 4000);
        assertThat(afterRunning.revision()).isEqualTo(2);
        assertThat(afterRunning.lastFired(T + 4000)).isEqualTo(new OccurrenceId("tick", 1, T + 4000));
        PlanRules.Plan p = RULES.plan(v2, afterRunning, T + 4000).orElseThrow();
        // T+5 s is within a second of now: enqueued after the turn is won, the rest ahead
        assertThat(p.fireNow()).containsExactly(T + 5000);
        assertThat(p.ahead()).containsExactly(T + 10_000);
    }

    @Test
    void startAndEndBoundTheOccurrences() {
        StoredSchedule def = stored(1, T, CronSchedule.of("tick", "* * * * * *")
                .window(Instant.ofEpochMilli(T + 3000), Instant.ofEpochMilli(T + 6000)));
        PlanRules.Plan p = RULES.plan(def, PlanRules.fresh(def), T).orElseThrow();
        assertThat(p.ahead()).containsExactly(T + 3000, T + 4000, T + 5000, T + 6000);
        assertThat(RULES.plan(def, p.next(), T + 60_000)).isEmpty();
    }

    @Test
    void theNextPlanningTimeIsWhenTheNextOccurrenceComesWithinTheHorizonAndNeverLaterThanMaxIdle() {
        Duration maxIdle = Duration.ofMinutes(10);
        StoredSchedule tick = stored(1, T, CronSchedule.of("tick", "*/2 * * * * *"));
        PlanState planned = RULES.plan(tick, PlanRules.fresh(tick), T).orElseThrow().next();
        assertThat(RULES.nextPlanning(tick, planned, T, maxIdle)).as("T+12 s, less the 10 s horizon").isEqualTo(T + 2000);

        StoredSchedule daily = stored(1, T, CronSchedule.of("daily", "0 3 * * *"));
        assertThat(RULES.nextPlanning(daily, PlanRules.fresh(daily), T, maxIdle)).isEqualTo(T + maxIdle.toMillis());
        StoredSchedule soon = stored(1, T, CronSchedule.of("soon", "5 0 * * *"));
        assertThat(RULES.nextPlanning(soon, PlanRules.fresh(soon), T, maxIdle)).as("00:05 less the horizon")
                .isEqualTo(T + 300_000 - 10_000);

        StoredSchedule paused = stored(2, T, CronSchedule.of("tick", "*/2 * * * * *").paused(true));
        assertThat(RULES.nextPlanning(paused, planned, T, maxIdle)).isEqualTo(T + maxIdle.toMillis());
        StoredSchedule ended = stored(1, T, CronSchedule.of("tick", "*/2 * * * * *").window(null, Instant.ofEpochMilli(T + 10_000)));
        assertThat(RULES.nextPlanning(ended, planned, T, maxIdle)).as("no occurrence after its end").isEqualTo(T + maxIdle.toMillis());
        StoredSchedule later = stored(1, T, CronSchedule.of("tick", "*/2 * * * * *").window(Instant.ofEpochMilli(T + 60_000), null));
        assertThat(RULES.nextPlanning(later, PlanRules.fresh(later), T, maxIdle)).as("its first occurrence, at its start")
                .isEqualTo(T + 60_000 - 10_000);

        PlanRules small = new PlanRules(Duration.ofSeconds(10), Duration.ofSeconds(5), 2);
        PlanState cut = small.plan(tick, PlanRules.fresh(tick), T).orElseThrow().next();
        assertThat(small.nextPlanning(tick, cut, T, maxIdle)).as("a step cut short by its bound is due again at once")
                .isLessThanOrEqualTo(T);
    }

    @Test
    void aStateWrittenBeforeOwedExistedReadsAsSettledAndAnOwingStateRoundTrips() {
        StoredSchedule def = stored(1, T, CronSchedule.of("tick", "* * * * * *"));
        String old = "{\"rev\":1,\"cursor\":" + T + ",\"since\":" + (T + 1) + ",\"last\":-1,\"lastRev\":0,\"missed\":0,\"late\":0,\"def\":"
                + com.fasterxml.jackson.databind.node.TextNode.valueOf(def.raw()) + "}";
        PlanState parsed = PlanState.parse(old);
        assertThat(parsed.owed()).isEmpty();
        assertThat(parsed.toJson()).isEqualTo(old);
        PlanState owing = parsed.owing(List.of(T + 1000, T + 2000), T);
        assertThat(PlanState.parse(owing.toJson())).isEqualTo(owing);
        assertThat(owing.settled(2)).extracting(PlanState::owed, PlanState::missed).containsExactly(List.of(), 2L);
    }
}
