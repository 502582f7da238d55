package io.delayq.operator.schedules;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.client.DelayQueueClient;
import io.delayq.operator.problem.Problem;
import io.delayq.operator.problem.Reason;
import io.delayq.operator.resource.DelayQueueSpec;
import io.delayq.operator.resource.ScheduleCalendarRule;
import io.delayq.operator.resource.ScheduleSpec;
import io.delayq.schedule.CalendarRule;
import io.delayq.schedule.Schedules;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** spec.schedules[].calendar against a real Redis: the operator writes a copy of the named calendar into the schedule. */
class ScheduleCalendarSyncTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    private static DelayQueueSpec spec(String calendar, ScheduleCalendarRule rule) {
        ScheduleSpec s = new ScheduleSpec();
        s.setName("settle");
        s.setCron("0 10 * * *");
        s.setTimeZone("Europe/Berlin");
        s.setCalendar(calendar);
        s.setCalendarRule(rule);
        DelayQueueSpec dq = new DelayQueueSpec();
        dq.setSchedules(List.of(s));
        return dq;
    }

    @Test
    void aDeclaredCalendarIsCopiedIntoTheScheduleAndAMissingOneIsAProblem() {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue("payouts").shards(2).build()) {
            Schedules schedules = Schedules.of(client);
            List<Problem> problems = new ArrayList<>();
            ScheduleSync.apply(schedules, DesiredSchedules.of(spec("de-bank", ScheduleCalendarRule.roll)), problems);
            assertThat(problems).extracting(Problem::reason).containsExactly(Reason.INVALID_SCHEDULE);
            assertThat(problems.get(0).message()).startsWith("spec.schedules[settle].calendar: no calendar named \"de-bank\" in Redis");
            assertThat(schedules.get("settle")).as("not applied").isEmpty();

            BusinessCalendar cal = BusinessCalendar.weekdays("de-bank", "Europe/Berlin");
            Calendars.of(client).put(cal);
            problems.clear();
            ScheduleSync.apply(schedules, DesiredSchedules.of(spec("de-bank", ScheduleCalendarRule.roll)), problems);
            assertThat(problems).isEmpty();
            var d = schedules.get("settle").orElseThrow().definition();
            assertThat(d.calendar()).isEqualTo(cal);
            assertThat(d.calendarRule()).isEqualTo(CalendarRule.ROLL);
            assertThat(d.managedBy()).isEqualTo("operator");

            // the default rule is skip; a rule without a calendar is refused by name
            assertThat(DesiredSchedules.of(spec("de-bank", null)).calendars().get("settle").rule()).isEqualTo(CalendarRule.SKIP);
            assertThat(DesiredSchedules.of(spec(null, ScheduleCalendarRule.skip)).problems()).extracting(Problem::message)
                    .containsExactly("spec.schedules[settle].calendarRule: needs a calendar; the schedule is not applied (Redis keeps its previous definition, if any)");
        }
    }
}
