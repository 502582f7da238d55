package io.delayq.operator.schedules;

import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.ScheduleMisfirePolicy;
import io.delayq.operator.resource.ScheduleSpec;
import io.delayq.operator.resource.ScheduleStatusEntry;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.MisfirePolicy;
import io.delayq.schedule.ScheduleStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** spec.schedules → core definitions owned by the operator, and Redis' answer → status entries; no client. */
class DesiredSchedulesTest {

    private static ScheduleSpec spec(String name, String cron) {
        ScheduleSpec s = new ScheduleSpec();
        s.setName(name);
        s.setCron(cron);
        return s;
    }

    @Test
    void everyFieldIsCarriedOverAndTheOperatorOwnsTheDefinition() {
        ScheduleSpec s = spec("close-books", "5 0 * * *");
        s.setTimeZone("Asia/Shanghai");
        s.setPayload("{}");
        s.setPriority(2);
        s.setStart("2027-01-01T08:00:00+08:00");
        s.setEnd("2027-12-31T00:00:00Z");
        s.setMisfirePolicy(ScheduleMisfirePolicy.fireAllMissed);
        s.setMisfireLimit(3);
        s.setSuspend(true);
        DelayQueueSpec dq = new DelayQueueSpec();
        dq.setSchedules(List.of(s));

        DesiredSchedules desired = DesiredSchedules.of(dq);

        assertThat(desired.problems()).isEmpty();
        assertThat(desired.schedules()).containsExactly(new CronSchedule("close-books", "5 0 * * *", "Asia/Shanghai", "{}", 2,
                Instant.parse("2027-01-01T00:00:00Z"), Instant.parse("2027-12-31T00:00:00Z"), MisfirePolicy.FIRE_ALL_MISSED, 3, true, "operator"));
    }

    @Test
    void aScheduleTheCoreRejectsIsAProblemNamingItAndStaysDeclared() {
        DelayQueueSpec dq = new DelayQueueSpec();
        ScheduleSpec zone = spec("zoned", "0 * * * *");
        zone.setTimeZone("Mars/Olympus_Mons");
        dq.setSchedules(List.of(spec("bad", "61 * * * *"), spec("good", "@hourly"), zone));

        DesiredSchedules desired = DesiredSchedules.of(dq);

        assertThat(desired.schedules()).extracting(CronSchedule::name).containsExactly("good");
        assertThat(desired.declared()).containsExactly("bad", "good", "zoned");
        assertThat(desired.problems()).extracting(Problem::reason).containsOnly(Reason.INVALID_SCHEDULE);
        assertThat(desired.problems()).extracting(Problem::message).satisfiesExactly(
                m -> assertThat(m).startsWith("spec.schedules[bad].cron: \"61 * * * *\" is not a valid expression"),
                m -> assertThat(m).startsWith("spec.schedules[zoned].timeZone: must be an IANA time zone"));
    }

    @Test
    void noSchedulesIsNothingToDo() {
        DesiredSchedules desired = DesiredSchedules.of(new DelayQueueSpec());
        assertThat(desired.schedules()).isEmpty();
        assertThat(desired.declared()).isEmpty();
    }

    @Test
    void statusEntriesAndTheEarliestNextFire() {
        CronSchedule def = CronSchedule.of("tick", "* * * * *");
        ScheduleStatus fired = new ScheduleStatus(def, 3, Instant.EPOCH, Instant.parse("2027-01-01T00:01:00Z"),
                Instant.parse("2027-01-01T00:00:00Z"), "sched:tick:3:1798761600000", ScheduleStatus.Outcome.SUCCEEDED, 2, 0, true);
        ScheduleStatus paused = new ScheduleStatus(def.paused(true), 4, Instant.EPOCH, null, null, null, ScheduleStatus.Outcome.NONE, 0, 0, true);

        List<ScheduleStatusEntry> entries = ScheduleStatuses.entries(List.of(fired, paused));

        assertThat(entries.get(0)).satisfies(e -> {
            assertThat(e.getRevision()).isEqualTo(3);
            assertThat(e.getNextFireTime()).isEqualTo("2027-01-01T00:01:00Z");
            assertThat(e.getLastFireTime()).isEqualTo("2027-01-01T00:00:00Z");
            assertThat(e.getLastOutcome()).isEqualTo("succeeded");
            assertThat(e.getMissed()).isEqualTo(2);
            assertThat(e.getSuspended()).isNull();
        });
        assertThat(entries.get(1).getSuspended()).isTrue();
        assertThat(entries.get(1).getLastOutcome()).isNull();
        assertThat(ScheduleStatuses.nextFire(List.of(fired, paused))).contains(Instant.parse("2027-01-01T00:01:00Z"));
    }
}
