package io.delayq.cli.calendar;

import io.delayq.InvalidInputException;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

@Command(name = "put", mixinStandardHelpOptions = true,
        description = "Create or replace a calendar. Schedules and later enqueues use the new days; tasks already enqueued keep their due time.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:created or replaced", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq calendar put de-bank --time-zone Europe/Berlin --holidays 2026-12-24,2026-12-25",
                "  delayq calendar put gulf --time-zone Asia/Riyadh --weekdays SUN-THU"})
public class CalendarPutCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The calendar's name: a DNS label (lower-case letters, digits, '-'), at most 63 characters.")
    String name;

    @Option(names = "--time-zone", paramLabel = "ZONE", required = true, description = "IANA time zone the days are counted in: Europe/Berlin, UTC.")
    String timeZone;

    @Option(names = "--weekdays", paramLabel = "DAYS", defaultValue = "MON-FRI",
            description = "Working weekdays: a range (MON-FRI, SUN-THU) or a list (MON,TUE,THU); default MON-FRI.")
    String weekdays;

    @Option(names = "--holidays", paramLabel = "DATES", split = ",",
            description = "Holiday dates YYYY-MM-DD, comma-separated; repeatable. At most " + BusinessCalendar.MAX_HOLIDAYS + ".")
    List<String> holidays = new ArrayList<>();

    private BusinessCalendar calendar;

    @Override
    protected void validate() {
        TreeSet<LocalDate> dates = new TreeSet<>();
        for (String d : holidays) {
            dates.add(BusinessCalendar.date("holidays", d.trim()));
        }
        calendar = new BusinessCalendar(BusinessCalendar.requireName(name), BusinessCalendar.zone(timeZone), days(weekdays), dates);
    }

    static Set<DayOfWeek> days(String text) {
        Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
        for (String part : text.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            if (dash < 0) {
                out.add(BusinessCalendar.weekday(p));
                continue;
            }
            DayOfWeek from = BusinessCalendar.weekday(p.substring(0, dash));
            DayOfWeek to = BusinessCalendar.weekday(p.substring(dash + 1));
            for (DayOfWeek d = from; ; d = d.plus(1)) {
                out.add(d);
                if (d == to) {
                    break;
                }
            }
        }
        if (out.isEmpty()) {
            throw new InvalidInputException("weekdays", "must name at least one working weekday (MON … SUN)");
        }
        return out;
    }

    @Override
    protected boolean createsQueue() {
        return true;
    }

    @Override
    protected int run(QueueConnection queue) {
        boolean created = Calendars.of(queue.client()).put(calendar);
        out().println((created ? "created" : "replaced") + " calendar " + name + " (queue " + queue.queue() + "): "
                + CalendarListCommand.describe(calendar));
        return ExitCodes.OK;
    }
}
