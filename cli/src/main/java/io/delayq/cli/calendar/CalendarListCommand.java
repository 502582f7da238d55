package io.delayq.cli.calendar;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.BusinessTime;
import io.delayq.calendar.Calendars;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.OutputFormat;
import io.delayq.cli.text.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.util.List;
import java.util.stream.Collectors;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the queue's calendars: zone, working weekdays, holidays, and the next business day (by the Redis clock).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:listed (also when there is none)", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq calendar list", "  delayq calendar list --output json | jq -r '.[].name'"})
public class CalendarListCommand extends QueueCommand {
    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json (an array of the stored calendars).")
    OutputFormat output;

    @Override
    protected int run(QueueConnection queue) throws Exception {
        List<BusinessCalendar> all = Calendars.of(queue.client()).list();
        if (output == OutputFormat.JSON) {
            ObjectMapper json = new ObjectMapper();
            var array = json.createArrayNode();
            for (BusinessCalendar c : all) {
                array.add(json.readTree(c.toJson()));
            }
            out().println(array);
            return ExitCodes.OK;
        }
        java.time.Instant now = java.time.Instant.ofEpochMilli(queue.serverNow());
        Table t = new Table(List.of("NAME", "ZONE", "WEEKDAYS", "HOLIDAYS", "TODAY", "NEXT HOLIDAY", "NEXT BUSINESS DAY"),
                false, false, false, true, false, false, false);
        for (BusinessCalendar c : all) {
            LocalDate local = LocalDate.ofInstant(now, c.zone());
            LocalDate nextHoliday = c.holidays().tailSet(local).stream().findFirst().orElse(null);
            t.row(c.name(), c.zone().getId(), weekdays(c), c.holidays().size(), c.isBusinessDay(local) ? "business" : "closed",
                    nextHoliday == null ? "-" : nextHoliday.toString(), BusinessTime.nextBusinessDay(c, local).toString());
        }
        t.print(out());
        out().println(all.size() + " calendar(s) in queue " + queue.queue());
        return ExitCodes.OK;
    }

    static String weekdays(BusinessCalendar c) {
        return c.weekdays().stream().sorted().map(CalendarListCommand::day).collect(Collectors.joining(","));
    }

    private static String day(DayOfWeek d) {
        return d.name().substring(0, 3);
    }

    static String describe(BusinessCalendar c) {
        return c.zone().getId() + ", " + weekdays(c) + ", " + c.holidays().size() + " holiday(s)";
    }
}
