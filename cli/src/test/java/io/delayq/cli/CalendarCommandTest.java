package io.delayq.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.BusinessTime;
import io.delayq.calendar.Calendars;
import io.delayq.task.TaskInfo;
import io.delayq.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.time.LocalTime;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** delayq calendar put|get|list|delete and enqueue on business days, against a real Redis. */
class CalendarCommandTest {
    @RegisterExtension
    static RedisServerExtension redis = new RedisServerExtension();

    @RegisterExtension
    final QueueFixture queue = QueueFixture.eachTest(redis, "payouts", 2);

    private CliRun delayq(String... args) {
        return CliRun.run(Map.of("DELAYQ_REDIS_URL", redis.url(), "DELAYQ_QUEUE", "payouts"), args);
    }

    @Test
    void putGetListDelete() throws Exception {
        CliRun put = delayq("calendar", "put", "de-bank", "--time-zone", "Europe/Berlin", "--holidays", "2026-12-25,2026-12-24",
                "--holidays", "2027-01-01");
        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(put.out()).isEqualTo("created calendar de-bank (queue payouts): Europe/Berlin, MON,TUE,WED,THU,FRI, 3 holiday(s)\n");
        assertThat(delayq("calendar", "put", "gulf", "--time-zone", "Asia/Riyadh", "--weekdays", "SUN-THU").out()).startsWith("created");
        assertThat(delayq("calendar", "put", "gulf", "--time-zone", "Asia/Riyadh", "--weekdays", "SUN-WED").out())
                .startsWith("replaced calendar gulf (queue payouts): Asia/Riyadh, MON,TUE,WED,SUN, 0 holiday(s)");

        CliRun get = delayq("calendar", "get", "de-bank");
        assertThat(get.out()).isEqualTo("{\"name\":\"de-bank\",\"timeZone\":\"Europe/Berlin\",\"weekdays\":[\"MON\",\"TUE\",\"WED\",\"THU\",\"FRI\"],"
                + "\"holidays\":[\"2026-12-24\",\"2026-12-25\",\"2027-01-01\"]}\n");
        assertThat(redis.admin().commands().hget("dq:{payouts}:calendars", "de-bank").toCompletableFuture().get()).isEqualTo(get.out().trim());

        CliRun list = delayq("calendar", "list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.out()).contains("NAME", "ZONE", "NEXT BUSINESS DAY", "de-bank", "Europe/Berlin", "gulf", "Asia/Riyadh",
                "2 calendar(s) in queue payouts");
        JsonNode json = new ObjectMapper().readTree(delayq("calendar", "list", "--output", "json").out());
        assertThat(json.get(0).get("name").asText()).isEqualTo("de-bank");
        assertThat(json.get(1).get("weekdays").toString()).isEqualTo("[\"MON\",\"TUE\",\"WED\",\"SUN\"]");

        assertThat(delayq("calendar", "delete", "gulf").out()).isEqualTo("deleted: gulf\n");
        CliRun again = delayq("calendar", "delete", "gulf");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(again.err()).isEqualTo("no calendar named gulf in queue payouts\n");
        assertThat(delayq("calendar", "get", "gulf").exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void badCalendarsAreRefusedNamingTheFieldAndRule() {
        assertUsage(delayq("calendar", "put", "x", "--time-zone", "Mars/Olympus"),
                "timeZone: must be an IANA time zone such as Europe/Berlin or UTC, got \"Mars/Olympus\"");
        assertUsage(delayq("calendar", "put", "x", "--time-zone", "UTC", "--holidays", "2026-02-30"),
                "holidays: \"2026-02-30\" is not a date of the calendar");
        assertUsage(delayq("calendar", "put", "x", "--time-zone", "UTC", "--weekdays", "MON,FUNDAY"),
                "weekdays: each must be one of MON, TUE, WED, THU, FRI, SAT, SUN, got \"FUNDAY\"");
        assertUsage(delayq("calendar", "put", "Payouts", "--time-zone", "UTC"), "name: must be a DNS label");
        assertUsage(delayq("calendar", "put", "x", "--time-zone", "UTC", "--holidays", "1969-12-31"),
                "holidays: dates must be between 1970-01-01 and 9999-12-31, got 1969-12-31");
        assertUsage(delayq("enqueue", "p-1", "--business-days", "2", "--time", "10:00"), "calendar: --business-days needs --calendar");
        assertUsage(delayq("enqueue", "p-1", "--business-days", "2", "--calendar", "de-bank"), "time: --business-days needs --time HH:MM");
        assertUsage(delayq("enqueue", "p-1", "--delay", "1m", "--roll-forward"), "rollForward: needs --at and --calendar");
        assertUsage(delayq("enqueue", "p-1", "--business-days", "2", "--calendar", "nope", "--time", "10:00"),
                "calendar: no calendar named \"nope\" in dq:{payouts}:calendars");
    }

    private static void assertUsage(CliRun run, String message) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).as(run.toString()).contains(message);
    }

    @Test
    void enqueueAfterBusinessDaysAndRolledForward() throws Exception {
        BusinessCalendar closed = BusinessCalendar.weekdays("de-bank", "Europe/Berlin");
        Calendars.of(queue.client()).put(closed);
        Instant before = Instant.ofEpochMilli(queue.serverNow());
        CliRun run = delayq("enqueue", "payout-1", "--calendar", "de-bank", "--business-days", "3", "--time", "10:00");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        Instant after = Instant.ofEpochMilli(queue.serverNow());
        TaskInfo info = queue.client().inspect("payout-1");
        Instant expected = BusinessTime.afterBusinessDays(closed, before, 3, LocalTime.of(10, 0));
        // the CLI read the Redis clock between before and after: the same business day, whichever it was
        assertThat(Instant.ofEpochMilli(info.score())).isIn(expected, BusinessTime.afterBusinessDays(closed, after, 3, LocalTime.of(10, 0)));

        // Saturday 26 December 2026, 09:00 CET -> Monday 28th 00:00 CET
        CliRun rolled = delayq("enqueue", "report-1", "--at", "2026-12-26T09:00:00+01:00", "--calendar", "de-bank", "--roll-forward");
        assertThat(rolled.exitCode()).as(rolled.toString()).isZero();
        assertThat(Instant.ofEpochMilli(queue.client().inspect("report-1").score())).isEqualTo(Instant.parse("2026-12-27T23:00:00Z"));
    }

    @Test
    void aScheduleKeepsToACalendar() throws Exception {
        assertThat(delayq("calendar", "put", "de-bank", "--time-zone", "Europe/Berlin", "--holidays", "2026-12-25").exitCode()).isZero();
        CliRun add = delayq("schedule", "add", "settle", "--cron", "0 10 * * *", "--time-zone", "Europe/Berlin", "--calendar", "de-bank",
                "--calendar-rule", "roll");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        var stored = io.delayq.schedule.Schedules.of(queue.client()).get("settle").orElseThrow().definition();
        assertThat(stored.calendar()).isEqualTo(Calendars.of(queue.client()).require("de-bank"));
        assertThat(stored.calendarRule()).isEqualTo(io.delayq.schedule.CalendarRule.ROLL);
        assertThat(delayq("schedule", "list").out()).contains("Europe/Berlin (roll de-bank)");
        JsonNode json = new ObjectMapper().readTree(delayq("schedule", "list", "--output", "json").out());
        assertThat(json.get("schedules").get(0).get("calendar").asText()).isEqualTo("de-bank");

        assertUsage(delayq("schedule", "add", "x", "--cron", "0 10 * * *", "--calendar-rule", "roll"), "--calendar-rule: needs --calendar");
        assertUsage(delayq("schedule", "add", "x", "--cron", "0 10 * * *", "--calendar", "de-bank", "--calendar-rule", "later"),
                "--calendar-rule: must be skip or roll, got later");
        assertUsage(delayq("schedule", "add", "x", "--cron", "0 10 * * *", "--calendar", "nope"),
                "calendar: no calendar named \"nope\" in dq:{payouts}:calendars");

        // a new holiday reaches the schedule: a new revision with the new copy
        delayq("calendar", "put", "de-bank", "--time-zone", "Europe/Berlin", "--holidays", "2026-12-25,2026-12-28");
        var after = io.delayq.schedule.Schedules.of(queue.client()).get("settle").orElseThrow();
        assertThat(after.revision()).isEqualTo(2);
        assertThat(after.definition().calendar().holidays()).hasSize(2);
    }
}
