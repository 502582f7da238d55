package io.delayq.cli.task;

import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.task.CancelResult;
import io.delayq.task.TaskId;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Remove a scheduled or dead task and its payload. A task in flight is left alone: its handler already runs.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:cancelled", "1:no task with this id, or it is in flight (nothing done)",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq cancel order-8812",
                "  delayq cancel order-8812 || echo 'not cancelled (unknown or running)'"})
public class CancelCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Task id.")
    String id;

    @Override
    protected void validate() {
        TaskId.require(id);
    }

    @Override
    protected int run(QueueConnection queue) {
        CancelResult r = queue.client().cancel(id);
        int shard = queue.client().protocol().shardOf(id);
        return switch (r) {
            case CANCELLED -> {
                out().println("cancelled " + id + " (queue " + queue.queue() + ", shard " + shard + ")");
                yield ExitCodes.OK;
            }
            case IN_FLIGHT -> throw CliException.notFound("id: task '" + id + "' is in flight (claimed under a lease: 'delayq inspect " + id
                    + "' says whether a live worker runs it); not cancelled");
            case UNKNOWN -> throw CliException.notFound("id: no task '" + id + "' in queue '" + queue.queue() + "' (shard " + shard
                    + "); it already fired, was cancelled, or never existed");
        };
    }
}
