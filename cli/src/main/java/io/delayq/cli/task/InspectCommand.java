package io.delayq.cli.task;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.DurationText;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.presence.InFlightLease;
import io.delayq.presence.PresenceRegistry;
import io.delayq.task.TaskId;
import io.delayq.task.TaskInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;

@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = {"Everything known about one task, read atomically: state (scheduled, in flight, dead, succeeded, unknown), "
                + "due time in local time and UTC, attempts, last error, lease expiry, the progress its handler reported while in flight, "
                + "shard, payload, when it succeeded, by which worker and its result (kept while the queue keeps results), and what to do next.",
                "This is the 'why did my task not fire?' checklist (ZSCORE, ZCARD, LRANGE by hand) in one answer."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:the task exists (scheduled, in flight or dead) or its completion is kept (succeeded)", "1:no task with this id in the queue (state unknown)",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq inspect order-8812",
                "  delayq inspect order-8812 --output json | jq -r .state"})
public class InspectCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "Task id.")
    String id;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    @Override
    protected void validate() {
        TaskId.require(id);
    }

    @Override
    protected int run(QueueConnection queue) {
        TaskInfo info = queue.client().inspect(id);
        InFlightLease lease = info.state() == TaskInfo.State.IN_FLIGHT
                ? InFlightLease.read(new PresenceRegistry(queue.redis(), queue.queue(), queue.timeout()), info) : null;
        TaskReport r = TaskReport.of(info, lease, queue.queue(), queue.shards(), environment().zone());
        if (output == OutputFormat.JSON) {
            Json.print(out(), r);
        } else {
            print(out(), r);
        }
        return info.state() == TaskInfo.State.UNKNOWN ? ExitCodes.NOT_FOUND : ExitCodes.OK;
    }

    private static void print(PrintWriter out, TaskReport r) {
        line(out, "id", r.id());
        line(out, "queue", r.queue() + ", shard " + r.shard() + " of " + r.shards());
        line(out, "state", r.state().replace('_', ' '));
        if (r.dueAt() != null) {
            line(out, "due", r.dueAtLocal() + " (" + r.dueAt() + ")"
                    + (r.overdueMillis() > 0 ? ", overdue by " + DurationText.human(r.overdueMillis()) : ""));
        }
        if (r.leaseExpiresAt() != null) {
            line(out, "lease expiry", r.leaseExpiresAtLocal() + " (" + r.leaseExpiresAt() + ")" + (r.leaseExpired() ? ", EXPIRED" : ""));
            line(out, "progress", r.progress() == null ? "- (the handler reported none)" : r.progress().line());
        }
        if (r.diedAt() != null) {
            line(out, "died at", r.diedAtLocal() + " (" + r.diedAt() + ")");
        }
        if (r.completion() != null) {
            TaskReport.Completion c = r.completion();
            line(out, r.state().equals("succeeded") ? "succeeded" : "last success", c.line());
            line(out, "result", (c.result().isEmpty() ? "-" : c.result()) + (c.resultTruncated() ? " … (cut at 1 KiB)" : ""));
        }
        if (r.priority() != null) {
            line(out, "priority", String.valueOf(r.priority()));
            line(out, "attempts", String.valueOf(r.attempts()));
            line(out, "last error", r.lastError() == null ? "-" : r.lastError());
            line(out, "payload", r.payload() == null ? "-" : r.payload());
        }
        line(out, "server time", r.serverTime());
        for (String h : r.hints()) {
            line(out, "next", h);
        }
    }

    private static void line(PrintWriter out, String label, String value) {
        out.printf("%-13s %s%n", label + ":", value);
    }
}
