package io.delayq.schedule;

import io.delayq.calendar.BusinessCalendar;
import org.junit.jupiter.api.Test;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.util.EnumSet;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Cron occurrences on a business calendar: skipped or rolled across weekends, holidays, year ends and DST changes. */
class CronTimesCalendarTest {
    private static final BusinessCalendar DE_BANK = BusinessCalendar.weekdays("de-bank", "Europe/Berlin").holidays(Stream.of(
            "2026-12-24", "2026-12-25", "2026-12-26", "2026-12-31", "2027-01-01").map(LocalDate::parse).toList());

    private static List<Instant> between(CronTimes times, String from, String until) {
        return times.between(Instant.parse(from), Instant.parse(until), 10_000);
    }

    private static List<Instant> instants(String... text) {
        return Stream.of(text).map(Instant::parse).toList();
    }

    /** previous() agrees with next(): each occurrence is its own previous, and just before it comes the one before. */
    private static void assertPreviousAgrees(CronTimes times, List<Instant> occurrences) {
        for (int i = 0; i < occurrences.size(); i++) {
            assertThat(times.previous(occurrences.get(i))).contains(occurrences.get(i));
            if (i > 0) {
                assertThat(times.previous(occurrences.get(i).minusMillis(1))).as("before %s", occurrences.get(i)).contains(occurrences.get(i - 1));
            }
        }
    }

    @Test
    void skipLeavesOutWeekendsAndHolidaysOverTheYearEnd() {
        CronTimes times = CronTimes.of("0 10 * * *", "Europe/Berlin").on(DE_BANK, CalendarRule.SKIP);
        List<Instant> got = between(times, "2026-12-22T12:00:00Z", "2027-01-05T12:00:00Z");
        assertThat(got).isEqualTo(instants("2026-12-23T09:00:00Z", "2026-12-28T09:00:00Z", "2026-12-29T09:00:00Z",
                "2026-12-30T09:00:00Z", "2027-01-04T09:00:00Z", "2027-01-05T09:00:00Z"));
        assertPreviousAgrees(times, got);
    }

    @Test
    void rollFiresOnceAtTheStartOfTheNextBusinessDayForEachClosedStretch() {
        CronTimes times = CronTimes.of("0 10 * * *", "Europe/Berlin").on(DE_BANK, CalendarRule.ROLL);
        List<Instant> got = between(times, "2026-12-22T12:00:00Z", "2027-01-05T12:00:00Z");
        assertThat(got).isEqualTo(instants("2026-12-23T09:00:00Z",
                "2026-12-27T23:00:00Z", // 24th–27th roll to Monday 28th 00:00 CET, once
                "2026-12-28T09:00:00Z", "2026-12-29T09:00:00Z", "2026-12-30T09:00:00Z",
                "2027-01-03T23:00:00Z", // 31st–3rd roll to Monday 4th 00:00 CET, once
                "2027-01-04T09:00:00Z", "2027-01-05T09:00:00Z"));
        assertPreviousAgrees(times, got);
        // inside a closed stretch, the latest occurrence so far is the last one before it
        assertThat(times.previous(Instant.parse("2026-12-26T12:00:00Z"))).contains(Instant.parse("2026-12-23T09:00:00Z"));
    }

    @Test
    void theCronZoneKeepsItsDstRulesAndTheCalendarZoneJudgesTheDay() {
        BusinessCalendar ny = new BusinessCalendar("ny", java.time.ZoneId.of("America/New_York"), EnumSet.allOf(DayOfWeek.class),
                new TreeSet<>(List.of(LocalDate.parse("2026-03-09"))));
        CronTimes times = CronTimes.of("30 2 * * *", "America/New_York").on(ny, CalendarRule.SKIP);
        // 8 March: 02:30 does not exist, fires at 03:30 EDT; 9 March is a holiday
        assertThat(between(times, "2026-03-07T12:00:00Z", "2026-03-10T12:00:00Z"))
                .isEqualTo(instants("2026-03-08T07:30:00Z", "2026-03-10T06:30:00Z"));
        // a calendar in Tokyo judges a New York occurrence by Tokyo's date: 02:30 EST on Friday is Friday 16:30 in Tokyo
        BusinessCalendar tokyo = BusinessCalendar.weekdays("tokyo", "Asia/Tokyo");
        CronTimes cross = CronTimes.of("30 2 * * *", "America/New_York").on(tokyo, CalendarRule.SKIP);
        assertThat(between(cross, "2026-12-03T12:00:00Z", "2026-12-08T12:00:00Z")).isEqualTo(instants(
                "2026-12-04T07:30:00Z", // Fri 02:30 EST = Fri 16:30 JST
                "2026-12-07T07:30:00Z", // Mon
                "2026-12-08T07:30:00Z")); // Tue; Sat and Sun 02:30 EST are Sat and Sun in Tokyo
    }

    @Test
    void aFrequentScheduleJumpsOverALongClosureInsteadOfWalkingIt() {
        TreeSet<LocalDate> quarter = new TreeSet<>();
        for (LocalDate d = LocalDate.parse("2027-01-01"); d.isBefore(LocalDate.parse("2027-04-01")); d = d.plusDays(1)) {
            quarter.add(d);
        }
        BusinessCalendar closed = BusinessCalendar.weekdays("closed", "UTC").holidays(quarter);
        CronTimes everySecond = CronTimes.of("* * * * * *", "UTC").on(closed, CalendarRule.SKIP);
        assertThat(everySecond.next(Instant.parse("2026-12-31T23:59:59Z"))).contains(Instant.parse("2027-04-01T00:00:00Z"));
        assertThat(everySecond.previous(Instant.parse("2027-03-31T12:00:00Z"))).contains(Instant.parse("2026-12-31T23:59:59Z"));
        CronTimes rolled = CronTimes.of("* * * * * *", "UTC").on(closed, CalendarRule.ROLL);
        assertThat(rolled.between(Instant.parse("2026-12-31T23:59:58Z"), Instant.parse("2027-04-01T00:00:01Z"), 10))
                .isEqualTo(instants("2026-12-31T23:59:59Z", "2027-04-01T00:00:00Z", "2027-04-01T00:00:01Z"));
    }

    @Test
    void theDefinitionKeepsItsCalendarCopyAndRuleInItsJson() {
        CronSchedule s = CronSchedule.of("settle", "0 10 * * 1-5").timeZone("Europe/Berlin").calendar(DE_BANK, CalendarRule.ROLL);
        CronSchedule back = CronSchedule.fromJson(s.toJson());
        assertThat(back).isEqualTo(s);
        assertThat(s.toJson()).contains("\"calendar\":" + DE_BANK.toJson(), "\"calendarRule\":\"roll\"");
        assertThat(CronSchedule.of("plain", "0 10 * * *").toJson()).doesNotContain("calendar");
    }
}
