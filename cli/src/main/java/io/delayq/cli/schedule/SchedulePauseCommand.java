package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;

@Command(name = "pause", mixinStandardHelpOptions = true,
        description = "Pause a schedule: occurrences planned and not fired yet are cancelled, none is planned until it is resumed.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done", "1:no schedule of that name", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq schedule pause close-books"})
public class SchedulePauseCommand extends NamedScheduleCommand {
    @Override
    protected int run(QueueConnection queue) {
        return setPaused(queue, true, "paused", "already paused");
    }
}
