package io.delayq.cli.backfill;

import io.delayq.cli.CliException;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = {"Idempotent bulk enqueue: adds the tasks of a file that are not in the queue yet and leaves the others alone "
                + "(duplicate policy reject), so it can run again and again - the 'database backstop' that re-exports what should "
                + "be scheduled.",
                "JSON lines: {\"id\":\"order-1\",\"dueAt\":\"2026-12-01T10:00:00Z\",\"payload\":\"...\"} per line; dueAt may be "
                        + "epoch milliseconds, payload any JSON value, priority 0..2 optional.",
                "CSV: a header naming id,dueAt,payload (payload and priority optional), then one row per task; quote fields "
                        + "that hold commas.",
                "A malformed row is reported with its line number and reason and never stops the good rows."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:every row was added or already present",
                "2:some rows were rejected (the good rows were still added), or the file or its header is unusable",
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq backfill due-orders.jsonl",
                "  psql --csv -t -c 'select id, (extract(epoch from due_at)*1000)::bigint, payload from r' \\",
                "      | (echo id,dueAt,payload; cat) | delayq backfill - --format csv",
                "  delayq backfill export.txt --format jsonl --output json"})
public class BackfillCommand extends QueueCommand {
    static final int BATCH = 1000;

    @Parameters(index = "0", paramLabel = "FILE", description = "JSON lines or CSV file ('-' = stdin, needs --format).")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT", description = "jsonl or csv (default: from the file name).")
    BackfillFormat format;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default: rejected rows on stderr, summary on stdout) or json (one report on stdout).")
    OutputFormat output;

    private boolean stdin;

    record ReportJson(String file, String queue, long added, long alreadyPresent, List<BackfillReport.Rejected> rejected) {
    }

    @Override
    protected void validate() {
        stdin = file.toString().equals("-");
        if (stdin && format == null) {
            throw CliException.usage("format: reading stdin needs --format jsonl or --format csv");
        }
        if (format == null) {
            format = BackfillFormat.of(file);
        }
        if (!stdin && !Files.isRegularFile(file)) {
            throw CliException.usage("file: no such file: " + file);
        }
    }

    @Override
    protected boolean createsQueue() {
        return true;
    }

    @Override
    protected int run(QueueConnection queue) throws IOException {
        BackfillReport report = new BackfillReport();
        Map<String, Long> firstLine = new HashMap<>();
        List<Row> batch = new ArrayList<>(BATCH);
        try (RowReader rows = open()) {
            for (Row row = rows.next(); row != null; row = rows.next()) {
                if (row.isRejected()) {
                    report.rejected(row.line(), row.rejection());
                    continue;
                }
                Long seen = firstLine.putIfAbsent(row.task().id(), row.line());
                if (seen != null) {
                    report.rejected(row.line(), "id: '" + row.task().id() + "' repeats line " + seen + " of this file");
                    continue;
                }
                batch.add(row);
                if (batch.size() == BATCH) {
                    send(queue, batch, report);
                }
            }
        } catch (CharacterCodingException e) {
            throw CliException.usage("file: " + name() + " is not UTF-8 text");
        } catch (NoSuchFileException e) {
            throw CliException.usage("file: no such file: " + file);
        }
        send(queue, batch, report);
        report.getRejected().sort((a, b) -> Long.compare(a.line(), b.line()));
        if (output == OutputFormat.JSON) {
            Json.print(out(), new ReportJson(name(), queue.queue(), report.getAdded(), report.getAlreadyPresent(), report.getRejected()));
        } else {
            for (BackfillReport.Rejected r : report.getRejected()) {
                err().println(name() + ":" + r.line() + ": " + r.reason());
            }
            out().println("backfill " + name() + " into queue " + queue.queue() + ": " + report.getAdded() + " added, "
                    + report.getAlreadyPresent() + " already present, " + report.getRejected().size() + " rejected");
        }
        return report.getRejected().isEmpty() ? ExitCodes.OK : ExitCodes.USAGE;
    }

    private void send(QueueConnection queue, List<Row> batch, BackfillReport report) {
        if (batch.isEmpty()) {
            return;
        }
        List<TaskSpec> tasks = batch.stream().map(Row::task).toList();
        List<EnqueueResult> results = queue.client().enqueueAll(tasks, DuplicatePolicy.REJECT);
        for (EnqueueResult r : results) {
            if (r.added()) {
                report.added();
            } else {
                report.alreadyPresent();
            }
        }
        batch.clear();
    }

    private RowReader open() throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(stdin ? System.in : Files.newInputStream(file),
                StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)));
        try {
            return format == BackfillFormat.CSV ? new CsvReader(reader) : new JsonLinesReader(reader);
        } catch (RuntimeException | IOException e) {
            reader.close();
            throw e;
        }
    }

    private String name() {
        return stdin ? "<stdin>" : file.toString();
    }
}
