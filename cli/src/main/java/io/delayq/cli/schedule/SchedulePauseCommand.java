package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.schedule.CronSchedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "pause", mixinStandardHelpOptions = true,
        description = "Pause a schedule: occurrences planned and not fired yet are cancelled, none is planned until it is resumed.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule pause close-books"})
public class SchedulePauseCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
    String name;

    @Override
    protected void validate() {
        CronSchedule.requireName(name);
    }

    @Override
    protected int run(QueueConnection queue) {
        if (queue.client().schedules().get(name).isEmpty()) {
            err().println("no schedule named " + name + " in queue " + queue.queue());
            return ExitCodes.NOT_FOUND;
        }
        var r = queue.client().schedules().pause(name);
        out().println((r.status() == io.delayq.schedule.PutResult.Status.UNCHANGED ? "already paused: " : "paused: ") + name
                + " (revision " + r.revision() + ")");
        return ExitCodes.OK;
    }
}
