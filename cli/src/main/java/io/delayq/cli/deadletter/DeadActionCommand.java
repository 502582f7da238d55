package io.delayq.cli.deadletter;

import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.deadletter.DeadLetter;
import io.delayq.task.TaskId;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** Replay and purge: select dead letters (ids and/or filters), show them on a dry run, or act and count. */
abstract class DeadActionCommand extends QueueCommand {
    @Parameters(paramLabel = "ID", arity = "0..*", description = "Only these task ids (they must be dead).")
    List<String> ids = new ArrayList<>();

    @Mixin
    DeadLetterFilter filter;

    @Option(names = "--dry-run", description = "Show what would be done; change nothing.")
    boolean dryRun;

    @Option(names = "--all", description = "Act on every dead letter when no id or filter is given (a guard against accidents).")
    boolean all;

    /** "replay" or "purge". */
    abstract String verb();

    abstract String pastTense();

    abstract long act(QueueConnection queue, List<String> ids);

    @Override
    protected void validate() {
        filter.validate();
        ids.forEach(TaskId::require);
        if (ids.isEmpty() && !filter.narrows() && !all) {
            throw CliException.usage("filter: " + verb() + " without an id or a filter (--older-than, --newer-than, --error-contains, "
                    + "--shard) would touch every dead letter; pass --all if that is what you mean");
        }
    }

    @Override
    protected int run(QueueConnection queue) {
        DeadLetterScan.Result r = DeadLetterScan.run(queue, filter, ids, null);
        List<DeadLetter> selected = r.selected();
        if (!ids.isEmpty()) {
            List<String> found = selected.stream().map(DeadLetter::id).toList();
            ids.stream().filter(id -> !found.contains(id)).distinct()
                    .forEach(id -> err().println("delayq dead " + verb() + ": id: '" + id + "' is not in the dead-letter set (or filtered out)"));
        }
        if (selected.isEmpty()) {
            out().println("no dead letters matched; nothing to " + verb());
            return ExitCodes.NOT_FOUND;
        }
        if (dryRun) {
            DeadLetterView.table(out(), selected, r.serverNow());
            out().println("dry run: would " + verb() + " " + selected.size() + " dead letter(s)" + of(r) + "; nothing changed");
            return ExitCodes.OK;
        }
        long done = act(queue, selected.stream().map(DeadLetter::id).toList());
        out().println(pastTense() + " " + done + " dead letter(s)" + of(r)
                + (done < selected.size() ? "; " + (selected.size() - done) + " were no longer dead" : ""));
        return done > 0 ? ExitCodes.OK : ExitCodes.NOT_FOUND;
    }

    private static String of(DeadLetterScan.Result r) {
        return " (" + r.matched() + " matched of " + r.total() + " searched)";
    }
}
