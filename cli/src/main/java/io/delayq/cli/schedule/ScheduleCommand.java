package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "schedule", mixinStandardHelpOptions = true,
        description = {"Recurring tasks: cron schedules in a time zone. Each occurrence becomes an ordinary task with the id "
                + "sched:<name>:<revision>:<epoch-ms>, planned ahead by the workers and fired once.",
                "Definitions live in Redis; a DelayQueue's spec.schedules are written there by the operator (see docs/schedules.md)."},
        subcommands = {ScheduleAddCommand.class, ScheduleListCommand.class, SchedulePauseCommand.class, ScheduleResumeCommand.class,
                ScheduleRemoveCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, "1:no schedule of that name (pause, resume, remove), or unchanged (add)", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq schedule add close-books --cron '5 0 * * *' --time-zone Asia/Shanghai",
                "  delayq schedule add recheck --cron '*/10 * * * *' --misfire-policy doNothing",
                "  delayq schedule list",
                "  delayq schedule pause close-books",
                "  delayq schedule resume close-books",
                "  delayq schedule remove recheck"})
public class ScheduleCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("delayq schedule: a subcommand is required: add, list, pause, resume or remove "
                + "(see 'delayq schedule --help')");
        return ExitCodes.USAGE;
    }
}
