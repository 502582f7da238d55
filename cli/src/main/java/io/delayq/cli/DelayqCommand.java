package io.delayq.cli;

import io.delayq.cli.backfill.BackfillCommand;
import io.delayq.cli.browse.ListCommand;
import io.delayq.cli.pause.PauseCommand;
import io.delayq.cli.pause.ResumeCommand;
import io.delayq.cli.backlog.StatsCommand;
import io.delayq.cli.backlog.TopCommand;
import io.delayq.cli.check.CheckCommand;
import io.delayq.cli.deadletter.DeadCommand;
import io.delayq.cli.schedule.ScheduleCommand;
import io.delayq.cli.task.CancelCommand;
import io.delayq.cli.task.EnqueueCommand;
import io.delayq.cli.task.InspectCommand;
import io.delayq.cli.task.RescheduleCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * The root {@code delayq} command. The worker's executable adds its {@code worker} subcommand to
 * the {@link CommandLine} that {@link Cli#commandLine()} builds.
 */
@Command(name = "delayq", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Inspect, schedule, cancel and repair a delayq queue in Redis, and check that Redis is safe for it.",
                "Connection: --redis or $DELAYQ_REDIS_URL / $REDIS_URL; queue: --queue or $DELAYQ_QUEUE; "
                        + "shards: read from Redis (--shards or $DELAYQ_SHARDS only to create a queue). These options work before or after the command."},
        subcommands = {EnqueueCommand.class, CancelCommand.class, RescheduleCommand.class, InspectCommand.class,
                StatsCommand.class, io.delayq.cli.reshard.ReshardCommand.class, io.delayq.cli.upgrade.UpgradeCommand.class, TopCommand.class, ListCommand.class, PauseCommand.class, ResumeCommand.class,
                DeadCommand.class, BackfillCommand.class, CheckCommand.class, ScheduleCommand.class, io.delayq.cli.bulk.TasksCommand.class,
                io.delayq.cli.calendar.CalendarCommand.class,
                CommandLine.HelpCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, "1:not found, or nothing done (duplicate id, task in flight, no dead letter matched)",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, "4:check found a failing check", ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  export DELAYQ_REDIS_URL=redis://localhost:6379 DELAYQ_QUEUE=orders",
                "  delayq inspect order-8812            # why did it not fire?",
                "  delayq stats --output json",
                "  delayq enqueue order-8812 --delay 30m --payload '{\"action\":\"cancel-if-unpaid\"}'",
                "  delayq dead replay --error-contains timeout --dry-run",
                "  delayq check"})
public class DelayqCommand implements Callable<Integer> {
    @Mixin(name = ConnectionOptions.MIXIN_NAME)
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    private final CliEnvironment environment;

    public DelayqCommand() {
        this(CliEnvironment.system());
    }

    public DelayqCommand(CliEnvironment environment) {
        this.environment = environment;
    }

    public CliEnvironment environment() {
        return environment;
    }

    /** The environment of the nearest enclosing {@code delayq} command, or the process's own. */
    public static CliEnvironment environment(CommandSpec command) {
        for (CommandSpec s = command; s != null; s = s.parent()) {
            if (s.userObject() instanceof DelayqCommand root) {
                return root.environment;
            }
        }
        return CliEnvironment.system();
    }

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("delayq: a command is required (see 'delayq --help')");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
