package io.delayq.cli.backlog;

import io.delayq.backlog.QueueStats;
import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.DurationConverter;
import io.delayq.DurationText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;

@Command(name = "top", mixinStandardHelpOptions = true,
        description = {"The stats table, refreshed live, with rates between refreshes, until Ctrl-C (or --iterations).",
                "Rates are net changes of the backlog counts (Redis keeps no event counters): "
                        + "fired/s = how fast scheduled + due now shrank (claims minus new tasks), "
                        + "done/s = how fast tasks left the queue (acked or cancelled), "
                        + "failed/s = new dead letters per second. Exact counts: the workers' delayq_tasks_total metric."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:stopped after --iterations", "1:the queue does not exist in Redis", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq top --queue orders",
                "  delayq top --interval 500ms --iterations 10 > backlog.log"})
public class TopCommand extends QueueCommand {
    private static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "2s", converter = DurationConverter.class,
            description = "Time between refreshes (default 2s, at least 100ms).")
    Duration interval;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0",
            description = "Stop after N refreshes (default 0: until Ctrl-C).")
    int iterations;

    @Override
    protected void validate() {
        if (interval.toMillis() < 100) {
            throw CliException.usage("interval: must be at least 100ms, got " + DurationText.human(interval.toMillis()));
        }
        if (iterations < 0) {
            throw CliException.usage("iterations: must be 0 (until Ctrl-C) or more, got " + iterations);
        }
    }

    @Override
    protected int run(QueueConnection queue) throws InterruptedException {
        PrintWriter out = out();
        boolean terminal = environment().terminal();
        QueueStats previous = null;
        for (int i = 1; iterations == 0 || i <= iterations; i++) {
            QueueStats now = queue.client().stats();
            if (terminal) {
                out.print(CLEAR_SCREEN);
            } else if (i > 1) {
                out.println();
            }
            StatsView.table(out, now, queue.shards(), queue.redactedUrl());
            if (previous == null) {
                out.println("rates: fired -/s  done -/s  failed -/s  (after the next refresh)");
            } else {
                BacklogRates r = BacklogRates.between(previous, now);
                out.printf("rates over %.1fs: fired %.1f/s  done %.1f/s  failed %.1f/s%n",
                        r.seconds(), r.firedPerSecond(), r.donePerSecond(), r.failedPerSecond());
            }
            out.flush();
            previous = now;
            if (iterations == 0 || i < iterations) {
                // the refresh period of a live view, not a wait for a condition
                Thread.sleep(interval.toMillis());
            }
        }
        return ExitCodes.OK;
    }
}
