package io.delayq.cli.bulk;

import io.delayq.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "tasks", mixinStandardHelpOptions = true,
        description = "Act on many waiting tasks at once: cancel, reschedule, shift, run now or dead-letter what a filter matches.",
        subcommands = {BulkCommand.class, BulkResumeCommand.class, BulkJobsCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, "1:nothing matched, or the run stopped (a reshard runs): nothing more done", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq tasks bulk --prefix order- --action cancel         # preview",
                "  delayq tasks bulk --prefix order- --action cancel --yes   # do it",
                "  delayq tasks resume 3fa2c1b0d9e4                           # after a crash",
                "  delayq tasks jobs"})
public class TasksCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("delayq tasks: a subcommand is required: bulk, resume or jobs (see 'delayq tasks --help')");
        return ExitCodes.USAGE;
    }
}
