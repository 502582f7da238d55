package io.delayq.cli.calendar;

import io.delayq.calendar.BusinessCalendar;
import io.delayq.calendar.Calendars;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "delete", mixinStandardHelpOptions = true,
        description = "Delete a calendar. Tasks already enqueued keep their due time; a schedule that names it is not planned until it exists again.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:deleted", "1:no calendar of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq calendar delete gulf"})
public class CalendarDeleteCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The calendar's name.")
    String name;

    @Override
    protected void validate() {
        BusinessCalendar.requireName(name);
    }

    @Override
    protected int run(QueueConnection queue) {
        if (!Calendars.of(queue.client()).delete(name)) {
            err().println("no calendar named " + name + " in queue " + queue.queue());
            return ExitCodes.NOT_FOUND;
        }
        out().println("deleted: " + name);
        return ExitCodes.OK;
    }
}
