package io.delayq.cli.deadletter;

import io.delayq.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "dead", mixinStandardHelpOptions = true,
        description = "The dead-letter set: tasks that used up their attempts or failed permanently. List, replay or purge them.",
        subcommands = {DeadListCommand.class, DeadReplayCommand.class, DeadPurgeCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, "1:nothing matched (replay, purge)", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq dead list --newer-than 1h",
                "  delayq dead replay --error-contains 'connect timed out' --dry-run",
                "  delayq dead purge --older-than 7d"})
public class DeadCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("delayq dead: a subcommand is required: list, replay or purge (see 'delayq dead --help')");
        return ExitCodes.USAGE;
    }
}
