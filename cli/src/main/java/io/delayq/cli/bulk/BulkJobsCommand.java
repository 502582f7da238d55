package io.delayq.cli.bulk;

import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkJob;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "jobs", mixinStandardHelpOptions = true,
        description = "The queue's bulk jobs, newest first: who started them, what they do, how far they got (the record of every bulk run).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.L_OK, ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq tasks jobs --limit 5"})
public class BulkJobsCommand extends QueueCommand {
    @Option(names = "--limit", paramLabel = "N", defaultValue = "20", description = "Most jobs shown, 1 to 500 (default 20).")
    int limit;

    @Override
    protected void validate() {
        if (limit < 1 || limit > 500) {
            throw io.delayq.cli.CliException.usage("limit: must be 1 to 500, got " + limit);
        }
    }

    @Override
    protected int run(QueueConnection queue) {
        List<BulkJob> jobs = new BulkActions(queue.client().protocol().scope(), queue.timeout()).jobs(limit);
        if (jobs.isEmpty()) {
            out().println("no bulk jobs in queue '" + queue.queue() + "'");
        }
        jobs.forEach(j -> BulkOutput.job(out(), j));
        return ExitCodes.OK;
    }
}
