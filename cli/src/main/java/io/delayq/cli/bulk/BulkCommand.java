package io.delayq.cli.bulk;

import io.delayq.bulk.BulkAction;
import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkFilter;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkPreview;
import io.delayq.bulk.BulkRefusedException;
import io.delayq.bulk.BulkRun;
import io.delayq.bulk.BulkState;
import io.delayq.bulk.NothingMatchedException;
import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.DurationConverter;
import io.delayq.cli.text.InstantConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;

@Command(name = "bulk", mixinStandardHelpOptions = true,
        description = {"Cancel, reschedule, shift, run now or dead-letter every waiting task a filter matches (tasks in flight are never touched).",
                "Without --yes it only previews: how many match and the first 20 due, changing nothing. With --yes it starts a job "
                        + "that works through every shard in bounded batches, prints its progress, and can be resumed with "
                        + "'delayq tasks resume JOB' if it stops. Refused while the queue is being resharded."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:previewed, or done", "1:nothing matched (nothing done), or the run stopped midway (it says how far it got; resume it)",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq tasks bulk --prefix order- --to 2026-12-02T00:00:00Z --action cancel",
                "  delayq tasks bulk --group acme --action shift --shift +2h --yes",
                "  delayq tasks bulk --state due --action dead-letter --reason stale --yes",
                "  delayq tasks bulk --prefix report- --action run-now --yes"})
public class BulkCommand extends QueueCommand {
    @Option(names = "--state", paramLabel = "STATE", defaultValue = "waiting",
            description = "waiting (default: every task not in flight), scheduled (due later) or due (due now, not claimed yet).")
    String state;

    @Option(names = "--prefix", paramLabel = "TEXT", description = "Only ids starting with TEXT.")
    String prefix = "";

    @Option(names = "--from", paramLabel = "INSTANT", converter = InstantConverter.class, description = "Only tasks due at or after INSTANT.")
    Instant from;

    @Option(names = "--to", paramLabel = "INSTANT", converter = InstantConverter.class, description = "… and before INSTANT (the window is [from, to)).")
    Instant to;

    @Option(names = "--group", paramLabel = "KEY", description = "Only the tasks of this group.")
    String group;

    @Option(names = "--priority", paramLabel = "0..2", description = "Only tasks of this priority level.")
    Integer priority;

    @Option(names = "--action", paramLabel = "ACTION", required = true,
            description = "cancel, reschedule (--at), shift (--shift), run-now or dead-letter (--reason).")
    String action;

    @Option(names = "--at", paramLabel = "INSTANT", converter = InstantConverter.class, description = "reschedule: the new due time of every match.")
    Instant at;

    @Option(names = "--shift", paramLabel = "[+|-]DURATION", description = "shift: move every match's due time by this much, e.g. +2h or -30m.")
    String shift;

    @Option(names = "--reason", paramLabel = "TEXT", description = "dead-letter: the reason recorded as each task's last error.")
    String reason;

    @Option(names = "--yes", description = "Do it (without it: a preview that changes nothing).")
    boolean yes;

    @Option(names = "--dry-run", description = "Preview only (the default without --yes).")
    boolean dryRun;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + BulkRun.DEFAULT_BATCH,
            description = "Tasks acted on per script call, 1 to " + BulkRun.MAX_BATCH + " (default " + BulkRun.DEFAULT_BATCH + ").")
    int batch;

    @Option(names = "--pause", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "2ms",
            description = "Pause after each batch, so that claims and enqueues get Redis in between (default 2ms).")
    Duration pause;

    private BulkFilter filter;
    private BulkAction bulkAction;

    @Override
    protected void validate() {
        filter = new BulkFilter(BulkState.parse(state), prefix, from, to, group, priority);
        BulkAction.Kind kind = BulkAction.Kind.parse(action);
        if (at != null && kind != BulkAction.Kind.RESCHEDULE) {
            throw CliException.usage("at: only with --action reschedule");
        }
        if (shift != null && kind != BulkAction.Kind.SHIFT) {
            throw CliException.usage("shift: only with --action shift");
        }
        if (reason != null && kind != BulkAction.Kind.DEAD_LETTER) {
            throw CliException.usage("reason: only with --action dead-letter");
        }
        bulkAction = switch (kind) {
            case CANCEL -> BulkAction.cancel();
            case RUN_NOW -> BulkAction.runNow();
            case DEAD_LETTER -> BulkAction.deadLetter(reason);
            case RESCHEDULE -> {
                if (at == null) {
                    throw CliException.usage("at: --action reschedule needs --at INSTANT (the new due time)");
                }
                yield BulkAction.reschedule(at);
            }
            case SHIFT -> {
                if (shift == null) {
                    throw CliException.usage("shift: --action shift needs --shift [+|-]DURATION, e.g. +2h or -30m");
                }
                yield BulkAction.shift(shift);
            }
        };
        new BulkRun(batch, pause, null, null);
        if (yes && dryRun) {
            throw CliException.usage("yes: --yes and --dry-run contradict each other; pick one");
        }
    }

    @Override
    protected int run(QueueConnection queue) {
        BulkActions bulk = new BulkActions(queue.client().protocol().scope(), queue.timeout());
        try {
            if (!yes) {
                BulkPreview p = bulk.preview(filter);
                BulkOutput.preview(out(), queue.queue(), p);
                if (p.matched() == 0) {
                    out().println("nothing matches; nothing to do");
                    return ExitCodes.NOT_FOUND;
                }
                out().println("dry run: would " + bulkAction.describe() + " for " + p.matched() + " task" + (p.matched() == 1 ? "" : "s")
                        + "; nothing changed. Add --yes to do it.");
                return ExitCodes.OK;
            }
            BulkJob job = bulk.start(filter, bulkAction, Who.cli(environment()));
            out().println("job " + job.id() + ": " + bulkAction.describe() + " for the " + job.total() + " matching task"
                    + (job.total() == 1 ? "" : "s") + " (" + filter.describe() + ") on " + job.shards() + " shards");
            out().println("if this stops, 'delayq tasks resume " + job.id() + "' goes on from where it stood");
            out().flush();
            return BulkResumeCommand.runToEnd(bulk, job.id(), batch, pause, out());
        } catch (NothingMatchedException e) {
            throw CliException.notFound(e.getMessage());
        } catch (BulkRefusedException e) {
            throw CliException.notFound(e.getMessage());
        }
    }
}
