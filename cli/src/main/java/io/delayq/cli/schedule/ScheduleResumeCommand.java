package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Resume a paused schedule. Occurrences it missed meanwhile are handled by its misfire policy (fireOnceNow: one fires now).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule resume close-books"})
public class ScheduleResumeCommand extends NamedScheduleCommand {
    @Override
    protected int run(QueueConnection queue) {
        return setPaused(queue, false, "resumed", "not paused");
    }
}
