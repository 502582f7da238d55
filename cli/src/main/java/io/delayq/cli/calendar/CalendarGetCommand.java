package io.delayq.cli.calendar;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.Optional;

@Command(name = "get", mixinStandardHelpOptions = true,
        description = "Print a calendar's stored JSON (the canonical form every client reads).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:printed", "1:no calendar of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq calendar get de-bank", "  delayq calendar get de-bank | jq -r '.holidays[]'"})
public class CalendarGetCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The calendar's name.")
    String name;

    @Override
    protected void validate() {
        BusinessCalendar.requireName(name);
    }

    @Override
    protected int run(QueueConnection queue) {
        Optional<BusinessCalendar> c = Calendars.of(queue.client()).get(name);
        if (c.isEmpty()) {
            err().println("no calendar named " + name + " in queue " + queue.queue());
            return ExitCodes.NOT_FOUND;
        }
        out().println(c.get().toJson());
        return ExitCodes.OK;
    }
}
