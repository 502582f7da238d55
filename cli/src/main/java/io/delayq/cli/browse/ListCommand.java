package io.delayq.cli.browse;

import io.delayq.browse.BrowsePage;
import io.delayq.browse.BrowseQuery;
import io.delayq.browse.BrowseState;
import io.delayq.browse.BrowsedTask;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.InstantConverter;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.cli.text.Table;
import io.delayq.cli.text.TerminalText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the tasks of a queue in one state, across all shards in due-time order (lease expiry for inflight, "
                + "time of death for dead), a page at a time.",
                "Each page reads a bounded number of entries per shard, so it costs the same with a million tasks waiting; "
                        + "with --prefix a page can be short or empty and still be followed by another (--cursor)."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:printed (also when no task matched)", "1:the queue does not exist in Redis", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq list scheduled --limit 20",
                "  delayq list due --prefix order-88",
                "  delayq list scheduled --from 2026-12-01T10:00:00Z --to 2026-12-01T11:00:00Z",
                "  delayq list dead --cursor <the 'next' value the previous page printed>",
                "  delayq list inflight --output json | jq '.tasks[].id'"})
public class ListCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "STATE", description = "scheduled (due later), due (due now, not claimed), inflight, dead")
    String state;

    @Option(names = "--prefix", paramLabel = "TEXT", description = "Only ids starting with TEXT.")
    String prefix;

    @Option(names = "--from", paramLabel = "INSTANT", converter = InstantConverter.class,
            description = "Only tasks whose time (due, lease expiry or death) is at or after INSTANT (ISO-8601 with a zone).")
    Instant from;

    @Option(names = "--to", paramLabel = "INSTANT", converter = InstantConverter.class, description = "… and at or before INSTANT.")
    Instant to;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "Tasks per page, 1 to 500 (default 50).")
    int limit;

    @Option(names = "--cursor", paramLabel = "CURSOR", description = "Start after the page that printed this 'next' cursor.")
    String cursor;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    private BrowseQuery query;

    @Override
    protected void validate() {
        query = new BrowseQuery(BrowseState.parse(state), prefix, from, to, limit, cursor);
    }

    @Override
    protected int run(QueueConnection queue) {
        BrowsePage page = queue.client().browse(query);
        if (output == OutputFormat.JSON) {
            Json.print(out(), json(page));
            return ExitCodes.OK;
        }
        String scoreName = switch (query.state()) {
            case IN_FLIGHT -> "lease expires";
            case DEAD -> "died";
            default -> "due";
        };
        Table t = new Table(List.of("id", "shard", scoreName, "", "prio", "attempts", query.state() == BrowseState.DEAD ? "last error" : "payload"),
                false, true, false, false, true, true, false);
        for (BrowsedTask task : page.tasks()) {
            t.row(TerminalText.safe(task.id()), task.shard(), Instants.utc(task.score()), Instants.relative(task.score(), page.serverNow()), task.priority(),
                    task.attempts(), clip(query.state() == BrowseState.DEAD ? task.lastError() : task.payloadPreview()));
        }
        if (!page.tasks().isEmpty()) {
            t.print(out());
        }
        out().println(page.tasks().size() + " shown; " + page.totalInWindow() + " " + query.state().wire()
                + (query.from() != null || query.to() != null ? " in the window" : "") + " in queue '" + queue.queue() + "'"
                + (query.idPrefix().isEmpty() ? "" : " (before the prefix filter)"));
        if (page.hasNext()) {
            out().println("next: --cursor " + page.next());
        }
        return ExitCodes.OK;
    }

    private static String clip(String s) {
        if (s == null) {
            return "";
        }
        // clipped before escaping, so that an escape is never cut in half
        String one = s.length() > 60 ? s.substring(0, 59) : s;
        return TerminalText.safe(one.replace('\n', ' ')) + (one.length() < s.length() ? "…" : "");
    }

    static Map<String, Object> json(BrowsePage page) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("state", page.query().state().wire());
        out.put("serverTime", Instants.utc(page.serverNow()));
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (BrowsedTask t : page.tasks()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", t.id());
            m.put("shard", t.shard());
            m.put("at", Instants.utc(t.score()));
            m.put("atMillis", t.score());
            m.put("priority", t.priority());
            m.put("attempts", t.attempts());
            m.put("lastError", t.lastError());
            m.put("payloadPreview", t.payloadPreview());
            tasks.add(m);
        }
        out.put("tasks", tasks);
        out.put("inWindow", page.totalInWindow());
        out.put("inWindowPerShard", page.inWindow());
        out.put("next", page.next());
        return out;
    }
}
