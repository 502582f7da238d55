package io.delayq.cli.schedule;

import io.delayq.InvalidInputException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Instants;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.schedule.CalendarRule;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.MisfirePolicy;
import io.delayq.schedule.PutResult;
import io.delayq.schedule.ScheduleStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.Map;

@Command(name = "add", mixinStandardHelpOptions = true,
        description = {"Create a schedule, or replace its definition: occurrences planned for the old definition and not fired yet "
                + "are cancelled, none of them fires. Adding an identical definition changes nothing."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:added or changed", "1:unchanged (the same definition was there)", ExitCodes.L_USAGE, ExitCodes.L_REDIS,
                ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq schedule add close-books --cron '5 0 * * *' --time-zone Asia/Shanghai",
                "  delayq schedule add tick --cron '*/15 * * * * *' --end 2027-01-02T00:00:00Z",
                "  delayq schedule add nightly --cron @daily --misfire-policy fireAllMissed --misfire-limit 3",
                "  delayq schedule add settle --cron '0 10 * * *' --calendar de-bank --calendar-rule roll"})
public class ScheduleAddCommand extends QueueCommand {
    private static final Map<String, String> OPTION_OF = Map.of("name", "NAME", "cron", "--cron", "timeZone", "--time-zone",
            "payload", "--payload", "priority", "--priority", "end", "--end", "misfireLimit", "--misfire-limit",
            "misfirePolicy", "--misfire-policy", "calendarRule", "--calendar-rule", "calendar", "--calendar");

    @Parameters(index = "0", paramLabel = "NAME", description = "Schedule name: a DNS label (a-z, 0-9, '-'), at most 63 characters.")
    String name;

    @Option(names = "--cron", required = true, paramLabel = "EXPR",
            description = "5 fields (minute hour day-of-month month day-of-week), 6 (seconds first), or @yearly, @monthly, @weekly, @daily, @hourly.")
    String cron;

    @Option(names = "--time-zone", paramLabel = "ZONE", defaultValue = "UTC",
            description = "IANA zone the expression is read in (default UTC). A time skipped by DST fires after the gap; a repeated one fires once.")
    String timeZone;

    @Option(names = "--payload", paramLabel = "TEXT", description = "Payload of every occurrence's task.")
    String payload;

    @Option(names = "--priority", paramLabel = "N", defaultValue = "0", description = "0 normal (default), 1 high, 2 highest.")
    int priority;

    @Option(names = "--start", paramLabel = "INSTANT", description = "No occurrence before (ISO-8601, e.g. 2027-01-01T00:00:00Z).")
    String start;

    @Option(names = "--end", paramLabel = "INSTANT", description = "No occurrence after (ISO-8601).")
    String end;

    @Option(names = "--misfire-policy", paramLabel = "POLICY", defaultValue = "fireOnceNow",
            description = "Occurrences missed while no worker ran: fireOnceNow (default), doNothing or fireAllMissed.")
    String misfirePolicy;

    @Option(names = "--misfire-limit", paramLabel = "N", defaultValue = "10",
            description = "With fireAllMissed: at most this many missed occurrences fire (default 10).")
    int misfireLimit;

    @Option(names = "--paused", description = "Add it paused (resume it with 'delayq schedule resume').")
    boolean paused;

    @Option(names = "--calendar", paramLabel = "NAME", description = "Keep to this business calendar of the queue ('delayq calendar list'): "
            + "occurrences off its business days are skipped or rolled (--calendar-rule).")
    String calendar;

    @Option(names = "--calendar-rule", paramLabel = "RULE", description = "With --calendar: skip (default; such occurrences do not happen) "
            + "or roll (they fire once at the start of the next business day).")
    String calendarRule;

    private CronSchedule schedule;
    private CalendarRule rule;

    @Override
    protected boolean createsQueue() {
        return true;
    }

    @Override
    protected void validate() {
        try {
            Instant from = start == null ? null : Instants.parse("--start", start);
            Instant until = end == null ? null : Instants.parse("--end", end);
            schedule = new CronSchedule(name, cron, timeZone, payload, priority, from, until, MisfirePolicy.fromWire(misfirePolicy),
                    misfireLimit, paused, null);
            if (calendarRule != null && calendar == null) {
                throw new InvalidInputException("calendarRule", "needs --calendar");
            }
            rule = calendarRule == null ? CalendarRule.SKIP : CalendarRule.fromWire(calendarRule);
            if (calendar != null) {
                BusinessCalendar.requireName(calendar);
            }
        } catch (InvalidInputException e) {
            String option = OPTION_OF.get(e.field());
            if (option == null) {
                throw e;
            }
            throw new InvalidInputException(option, e.getMessage().substring(e.field().length() + 2));
        }
    }

    @Override
    protected int run(QueueConnection queue) {
        if (calendar != null) {
            schedule = schedule.calendar(Calendars.of(queue.client()).require(calendar), rule);
        }
        PutResult r = io.delayq.schedule.Schedules.of(queue.client()).put(schedule);
        ScheduleStatus s = io.delayq.schedule.Schedules.of(queue.client()).get(name).orElseThrow();
        String next = s.nextFire() == null ? (schedule.paused() ? "paused" : "no further occurrence")
                : "next " + Instants.both(s.nextFire().toEpochMilli(), environment().zone());
        switch (r.status()) {
            case ADDED -> out().println("added schedule " + name + " (queue " + queue.queue() + ", revision " + r.revision() + "): " + next);
            case CHANGED -> out().println("changed schedule " + name + " (revision " + r.revision()
                    + "): occurrences of the old definition not fired yet are cancelled; " + next);
            case UNCHANGED -> out().println("unchanged schedule " + name + " (revision " + r.revision() + "): the same definition is there");
            case CONFLICT -> out().println("schedule " + name + " changed meanwhile; try again");
        }
        return r.status() == PutResult.Status.ADDED || r.status() == PutResult.Status.CHANGED ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }
}
