package io.delayq.cli.bulk;

import io.delayq.DurationText;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkPreview;
import io.delayq.bulk.BulkSample;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.TerminalText;

import java.io.PrintWriter;

/** How the bulk commands print a preview, progress and a job. */
final class BulkOutput {
    private BulkOutput() {
    }

    static void preview(PrintWriter out, String queue, BulkPreview p) {
        out.println("matched:  " + p.matched() + " waiting task" + (p.matched() == 1 ? "" : "s") + " of queue '" + queue + "' ("
                + p.shards() + " shards): " + TerminalText.safe(p.filter().describe()));
        if (p.matched() > 0) {
            out.println("due:      " + Instants.utc(p.earliest()) + " (" + DurationText.relative(p.earliest(), p.serverNow()) + ") to "
                    + Instants.utc(p.latest()) + " (" + DurationText.relative(p.latest(), p.serverNow()) + ")");
            out.println("sample:   the " + p.sample().size() + " due first");
            for (BulkSample s : p.sample()) {
                out.printf("  %-40s shard %-4d due %s%n", TerminalText.safe(s.id()), s.shard(), Instants.utc(s.dueAt()));
            }
        }
    }

    static String progress(BulkJob j) {
        return "job " + j.id() + ": " + j.status().label() + ", " + j.done() + "/" + j.total() + " done"
                + (j.skipped() > 0 ? ", " + j.skipped() + " skipped" : "") + (j.note().isEmpty() ? "" : " (" + j.note() + ")");
    }

    static void job(PrintWriter out, BulkJob j) {
        out.println(progress(j));
        out.println("  action:  " + j.action().describe());
        out.println("  filter:  " + TerminalText.safe(j.filter().describe()));
        out.println("  started: " + Instants.utc(j.createdAt()) + " by " + TerminalText.safe(j.by()) + "; last batch "
                + Instants.utc(j.updatedAt()) + "; layout epoch " + j.epoch() + ", " + j.shards() + " shards");
    }
}
