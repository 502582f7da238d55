package io.delayq.schedule;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.testing.NewQueuesOnProtocol2;
import io.delayq.testing.RedisServerExtension;
import io.delayq.testing.TestQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedules on a business calendar against a real Redis: a daily schedule skips (or rolls) the holiday of a
 * calendar written relative to today, and a calendar put again re-plans the schedules that keep to it.
 */
class CalendarScheduleTest {
    @RegisterExtension
    static NewQueuesOnProtocol2 protocol2 = new NewQueuesOnProtocol2();

    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final TestQueue q = TestQueue.eachTest(redis, "payouts", 2);

    /** Three days ahead: every daily occurrence up to the day after tomorrow is planned in one turn. */
    private static final PlanRules RULES = new PlanRules(Duration.ofDays(3), Duration.ofSeconds(5), 500);

    /** Every task waiting in the queue: id → due time. */
    private Map<String, Long> due() {
        return q.waiting();
    }

    private LocalDate today() {
        return LocalDate.ofInstant(Instant.ofEpochMilli(Schedules.of(q.client()).store().serverNow()), ZoneOffset.UTC);
    }

    private static BusinessCalendar everyDayBut(LocalDate... holidays) {
        return new BusinessCalendar("ops", java.time.ZoneId.of("UTC"), EnumSet.allOf(DayOfWeek.class), new java.util.TreeSet<>(List.of(holidays)));
    }

    /** The schedule's window ends with the day after tomorrow, so that the turn plans two days. */
    private static Instant twoDays(LocalDate tomorrow) {
        return tomorrow.plusDays(2).atStartOfDay().toInstant(ZoneOffset.UTC).minusSeconds(1);
    }

    private static long at(LocalDate day, int hour) {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    @Test
    void aDailyScheduleSkipsTheHolidayOfItsCalendar() {
        LocalDate tomorrow = today().plusDays(1);
        BusinessCalendar cal = everyDayBut(tomorrow);
        Calendars.of(q.client()).put(cal);
        Schedules schedules = Schedules.of(q.client());
        // from tomorrow 00:00 to the end of the day after: tomorrow's occurrence (a holiday) and the day after's
        schedules.put(CronSchedule.of("settle", "0 10 * * *").window(tomorrow.atStartOfDay().toInstant(ZoneOffset.UTC), twoDays(tomorrow))
                .calendar(cal, CalendarRule.SKIP));

        schedules.planner(RULES).turn();

        assertThat(due()).containsOnlyKeys("sched:settle:1:" + at(tomorrow.plusDays(1), 10));
    }

    @Test
    void aDailyScheduleRollsTheHolidayToTheStartOfTheNextBusinessDay() {
        LocalDate tomorrow = today().plusDays(1);
        BusinessCalendar cal = everyDayBut(tomorrow);
        Calendars.of(q.client()).put(cal);
        Schedules schedules = Schedules.of(q.client());
        schedules.put(CronSchedule.of("settle", "0 10 * * *").window(tomorrow.atStartOfDay().toInstant(ZoneOffset.UTC), twoDays(tomorrow))
                .calendar(cal, CalendarRule.ROLL));

        schedules.planner(RULES).turn();

        long rolled = at(tomorrow.plusDays(1), 0);
        assertThat(due()).containsOnlyKeys("sched:settle:1:" + rolled, "sched:settle:1:" + at(tomorrow.plusDays(1), 10));
        assertThat(due().get("sched:settle:1:" + rolled)).isEqualTo(rolled);
    }

    @Test
    void aCalendarPutAgainReplansTheSchedulesThatKeepToIt() {
        LocalDate tomorrow = today().plusDays(1);
        Calendars calendars = Calendars.of(q.client());
        calendars.put(everyDayBut(tomorrow));
        Schedules schedules = Schedules.of(q.client());
        schedules.put(CronSchedule.of("settle", "0 10 * * *").window(tomorrow.atStartOfDay().toInstant(ZoneOffset.UTC), twoDays(tomorrow))
                .calendar(calendars.require("ops"), CalendarRule.SKIP));
        schedules.planner(RULES).turn();
        assertThat(due()).containsOnlyKeys("sched:settle:1:" + at(tomorrow.plusDays(1), 10));

        // the day after tomorrow becomes a holiday too: the schedule gets the new copy (revision 2), and the
        // next turn cancels the occurrence planned on it
        calendars.put(everyDayBut(tomorrow, tomorrow.plusDays(1)));
        StoredSchedule stored = StoredSchedule.parse(schedules.store().definition("settle"));
        assertThat(stored.revision()).isEqualTo(2);
        assertThat(stored.definition().calendar().holidays()).containsExactly(tomorrow, tomorrow.plusDays(1));

        schedules.planner(RULES).turn();
        assertThat(due()).isEmpty();
        assertThat(Set.copyOf(calendars.list())).containsExactly(everyDayBut(tomorrow, tomorrow.plusDays(1)));
    }
}
