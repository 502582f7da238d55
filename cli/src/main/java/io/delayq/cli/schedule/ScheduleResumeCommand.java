package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.schedule.CronSchedule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Resume a paused schedule. Occurrences it missed meanwhile are handled by its misfire policy (fireOnceNow: one fires now).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule resume close-books"})
public class ScheduleResumeCommand extends QueueCommand {
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
        var r = queue.client().schedules().resume(name);
        out().println((r.status() == io.delayq.schedule.PutResult.Status.UNCHANGED ? "not paused: " : "resumed: ") + name
                + " (revision " + r.revision() + ")");
        return ExitCodes.OK;
    }
}
