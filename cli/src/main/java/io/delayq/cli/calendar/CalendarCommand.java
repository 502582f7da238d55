package io.delayq.cli.calendar;

import io.delayq.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "calendar", mixinStandardHelpOptions = true,
        description = {"Business calendars: working weekdays in a time zone minus holiday dates, stored in Redis (dq:{q}:calendars) "
                + "where producers in every language and the workers' schedule planners read them (see docs/business-days.md).",
                "Use one with 'delayq enqueue --calendar NAME --business-days N --time HH:MM', 'delayq enqueue --at T --calendar NAME "
                        + "--roll-forward', or 'delayq schedule add --calendar NAME --calendar-rule skip|roll'."},
        subcommands = {CalendarPutCommand.class, CalendarGetCommand.class, CalendarListCommand.class, CalendarDeleteCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, "1:no calendar of that name (get, delete)", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq calendar put de-bank --time-zone Europe/Berlin --holidays 2026-12-24,2026-12-25",
                "  delayq calendar put gulf --time-zone Asia/Riyadh --weekdays SUN-THU",
                "  delayq calendar get de-bank",
                "  delayq calendar list",
                "  delayq calendar delete gulf"})
public class CalendarCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("delayq calendar: a subcommand is required: put, get, list or delete (see 'delayq calendar --help')");
        return ExitCodes.USAGE;
    }
}
