package io.delayq.cli.reshard;

import io.delayq.cli.CliException;
import io.delayq.cli.ConnectionOptions;
import io.delayq.cli.ConnectionSettings;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import io.delayq.reshard.Mover;
import io.delayq.shard.Sharding;
import io.lettuce.core.RedisCommandExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

@Command(name = "reshard", mixinStandardHelpOptions = true,
        description = {"Grow a live queue to more shards: record the migration in the queue's meta hash, then move every waiting "
                + "and dead task whose id now belongs to another shard, in small atomic batches, while producers and workers go on. "
                + "Tasks in flight finish where they are. Prints progress; run it again after a crash and it resumes.",
                "Shrinking is refused, and so is a second migration to another count while one runs, and a second mover of the "
                + "same queue while the first one renews its lease (the message names it; after a crash the lease runs out in "
                + "15 s and the next run takes over). Workers started over the "
                + "whole queue follow the new count; a worker with an explicit shard range keeps its range (docs/resharding.md)."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:the queue has the new shard count, every task on its shard (also when it had it already)", "1:the queue does not exist in Redis",
                "2:bad input (--to missing or out of range, a shrink, another migration running, another mover holding the queue's lease)", ExitCodes.L_REDIS,
                ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq reshard orders --to 16", "  delayq reshard --queue orders --to 64 --batch 200"})
public class ReshardCommand implements Callable<Integer> {
    @Mixin(name = ConnectionOptions.MIXIN_NAME)
    ConnectionOptions connection;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "QUEUE", description = "Queue name (or --queue, or $DELAYQ_QUEUE).")
    String queueName;

    @Option(names = "--to", paramLabel = "N", required = true, description = "The new shard count (larger than the current one, at most 1024).")
    int to;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "50",
            description = "Entries one move script looks at (1-1000, default 50): the bound of each Redis call.")
    int batch;

    @Option(names = "--lease", paramLabel = "DURATION", converter = io.delayq.cli.text.DurationConverter.class, defaultValue = "15s",
            description = "How long this run's lease on the queue lasts without a renewal (default 15s, renewed every third of it): "
                    + "a second run is refused while it lasts, and takes over once a killed run's lease ran out.")
    java.time.Duration lease;

    @Option(names = "--pause", paramLabel = "DURATION", converter = io.delayq.cli.text.DurationConverter.class, defaultValue = "3ms",
            description = "Pause after each move script call (0-1s, default 3ms), which leaves Redis to producers and workers "
                    + "between two batches: 0 moves fastest but delays firing while it runs.")
    java.time.Duration pause;

    @Override
    public Integer call() {
        if (to < 1 || to > Sharding.MAX_SHARDS) {
            throw CliException.usage("to: must be between 1 and " + Sharding.MAX_SHARDS + ", got " + to);
        }
        if (batch < 1 || batch > 1000) {
            throw CliException.usage("batch: must be between 1 and 1000, got " + batch);
        }
        if (lease.toMillis() < 1000 || lease.toMinutes() > 10) {
            throw CliException.usage("lease: must be between 1s and 10m, got " + lease);
        }
        ConnectionSettings s = ConnectionOptions.resolve(spec);
        if (queueName != null) {
            s = new ConnectionSettings(s.redisUrl(), queueName, s.shards(), s.timeout());
        }
        PrintWriter out = spec.commandLine().getOut();
        try (QueueConnection queue = QueueConnection.open(s, false)) {
            ProgressPrinter printer = new ProgressPrinter(out, queue.queue());
            Mover.Result r;
            try {
                r = new Mover(Mover.Params.of(queue.client().protocol(), to, printer).withBatch(batch).withLease(lease).withPause(pause)).run();
            } catch (io.delayq.reshard.MoverBusyException e) {
                throw CliException.usage(e.getMessage());
            } catch (RedisCommandExecutionException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("RESHARD ")) {
                    throw CliException.usage(e.getMessage().substring("RESHARD ".length()));
                }
                throw e;
            }
            if (r.alreadyThere()) {
                out.println("queue '" + queue.queue() + "' already has " + r.to() + " shards: nothing to move (layout stamps checked)");
                out.flush();
                return ExitCodes.OK;
            }
            out.println((r.resumed() ? "resumed and finished" : "finished") + ": queue '" + queue.queue() + "' now has " + r.to()
                    + " shards (was " + r.from() + "), " + r.moved() + " tasks moved in " + r.passes() + " passes, layout epoch " + r.epoch());
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** One line per phase change and at most one a second while moving. */
    static final class ProgressPrinter implements java.util.function.Consumer<Mover.Progress> {
        private final PrintWriter out;
        private final String queue;
        private String lastPhase = "";
        private long lastLine;

        ProgressPrinter(PrintWriter out, String queue) {
            this.out = out;
            this.queue = queue;
        }

        @Override
        public void accept(Mover.Progress p) {
            long now = System.nanoTime();
            if (p.phase().equals(lastPhase) && now - lastLine < 1_000_000_000L) {
                return;
            }
            lastPhase = p.phase();
            lastLine = now;
            out.println("reshard " + queue + " " + p.from() + " -> " + p.to() + ": " + p.phase()
                    + (p.pass() > 0 ? ", pass " + p.pass() : "") + ", moved " + p.moved()
                    + (p.left() >= 0 ? ", left ~" + p.left() : "")
                    + (p.inFlightElsewhere() > 0 ? ", " + p.inFlightElsewhere() + " in flight on their old shard" : ""));
            out.flush();
        }
    }
}
