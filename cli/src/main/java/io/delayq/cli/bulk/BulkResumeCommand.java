package io.delayq.cli.bulk;

import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkRefusedException;
import io.delayq.bulk.BulkRun;
import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.DurationConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Duration;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Go on with a bulk job that stopped (a crash, a kill, Ctrl-C, a reshard) from where Redis says each shard stood; no batch is applied twice.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:done (or was done already)", "1:stopped again (a reshard runs), or no such job", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq tasks resume 3fa2c1b0d9e4"})
public class BulkResumeCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "JOB", description = "The job id 'delayq tasks bulk' printed (also in 'delayq tasks jobs').")
    String job;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + BulkRun.DEFAULT_BATCH,
            description = "Tasks acted on per script call, 1 to " + BulkRun.MAX_BATCH + " (default " + BulkRun.DEFAULT_BATCH + ").")
    int batch;

    @Option(names = "--pause", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "2ms",
            description = "Pause after each batch (default 2ms).")
    Duration pause;

    @Override
    protected void validate() {
        new BulkRun(batch, pause, null, null);
    }

    @Override
    protected int run(QueueConnection queue) {
        BulkActions bulk = new BulkActions(queue.client().protocol().scope(), queue.timeout());
        BulkJob j = bulk.job(job);
        if (j.finished()) {
            out().println(BulkOutput.progress(j) + "; nothing left to do");
            return ExitCodes.OK;
        }
        out().println("resuming " + BulkOutput.progress(j));
        out().flush();
        return runToEnd(bulk, job, batch, pause, out());
    }

    /** Runs the job, printing its progress at most once a second, and its end. */
    static int runToEnd(BulkActions bulk, String job, int batch, Duration pause, PrintWriter out) {
        long[] lastPrint = {System.nanoTime()};
        BulkRun run = new BulkRun(batch, pause, null, j -> {
            if (System.nanoTime() - lastPrint[0] >= 1_000_000_000L && !j.finished()) {
                lastPrint[0] = System.nanoTime();
                out.println("progress: " + j.done() + "/" + j.total());
                out.flush();
            }
        });
        try {
            BulkJob end = bulk.run(job, run);
            out.println("done: " + BulkOutput.progress(end) + (end.done() != end.total()
                    ? " (the total is what the preview counted; tasks fired, added or moved since change what the run meets)" : ""));
            return ExitCodes.OK;
        } catch (BulkRefusedException e) {
            throw CliException.notFound(e.getMessage());
        }
    }
}
