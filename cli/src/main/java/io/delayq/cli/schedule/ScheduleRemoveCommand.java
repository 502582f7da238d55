package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;

@Command(name = "remove", mixinStandardHelpOptions = true,
        description = "Remove a schedule: occurrences planned and not fired yet are cancelled by the next planning turn; fired ones are left to finish.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule remove close-books"})
public class ScheduleRemoveCommand extends NamedScheduleCommand {
    @Override
    protected int run(QueueConnection queue) {
        if (!io.delayq.schedule.Schedules.of(queue.client()).remove(name)) {
            return missing(queue);
        }
        out().println("removed: " + name);
        return ExitCodes.OK;
    }
}
