package io.delayq.cli.task;

import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Instants;
import io.delayq.task.RescheduleResult;
import io.delayq.task.Schedule;
import io.delayq.task.TaskId;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "reschedule", mixinStandardHelpOptions = true,
        description = "Move a scheduled task to a new due time, keeping its payload and priority.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:rescheduled", "1:no task with this id, or it is in flight or dead (nothing done)",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq reschedule order-8812 --delay 2h",
                "  delayq reschedule payout-W17 --at 2026-12-02T09:00:00Z"})
public class RescheduleCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Task id.")
    String id;

    @ArgGroup(exclusive = true, multiplicity = "1")
    DueTime due;

    private Schedule schedule;

    @Override
    protected void validate() {
        TaskId.require(id);
        schedule = due.schedule();
    }

    @Override
    protected int run(QueueConnection queue) {
        String past = due.pastNotice(queue);
        RescheduleResult r = queue.client().reschedule(id, schedule);
        int shard = queue.client().protocol().shardOf(id);
        return switch (r.status()) {
            case RESCHEDULED -> {
                out().println("rescheduled " + id + " (queue " + queue.queue() + ", shard " + shard + "): due "
                        + Instants.both(r.dueAt(), environment().zone()));
                if (past != null) {
                    err().println(spec.qualifiedName() + ": " + past);
                }
                yield ExitCodes.OK;
            }
            case IN_FLIGHT -> throw CliException.notFound("id: task '" + id + "' is in flight (claimed under a lease: 'delayq inspect " + id
                    + "' says whether a live worker runs it); not rescheduled");
            case DEAD -> throw CliException.notFound("id: task '" + id + "' is dead; not rescheduled (replay it with 'delayq dead replay "
                    + id + "', or enqueue it again with --on-duplicate replace)");
            case UNKNOWN -> throw CliException.notFound("id: no task '" + id + "' in queue '" + queue.queue() + "' (shard " + shard
                    + "); it already fired, was cancelled, or never existed");
        };
    }
}
