package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.schedule.CronSchedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "remove", mixinStandardHelpOptions = true,
        description = "Remove a schedule: occurrences planned and not fired yet are cancelled by the next planning turn; fired ones are left to finish.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule remove close-books"})
public class ScheduleRemoveCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
    String name;

    @Override
    protected void validate() {
        CronSchedule.requireName(name);
    }

    @Override
    protected int run(QueueConnection queue) {
        if (!queue.client().schedules().remove(name)) {
            err().println("no schedule named " + name + " in queue " + queue.queue());
            return ExitCodes.NOT_FOUND;
        }
        out().println("removed: " + name);
        return ExitCodes.OK;
    }
}
