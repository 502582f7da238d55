package io.delayq.cli.deadletter;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "list", mixinStandardHelpOptions = true,
        description = "List dead letters, oldest first, with when and why they died.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:listed (also when nothing matched)", "1:the queue does not exist in Redis", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq dead list",
                "  delayq dead list --error-contains 'HTTP 410' --shard 3 --limit 20",
                "  delayq dead list --newer-than 1h --output json | jq -r '.deadLetters[].id'"})
public class DeadListCommand extends QueueCommand {
    static final int DEFAULT_LIMIT = 100;

    @Mixin
    DeadLetterFilter filter;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    @Override
    protected void validate() {
        filter.validate();
    }

    @Override
    protected int run(QueueConnection queue) {
        DeadLetterScan.Result r = DeadLetterScan.run(queue, filter, List.of(), DEFAULT_LIMIT);
        if (output == OutputFormat.JSON) {
            Json.print(out(), new DeadLetterView.ListJson(queue.queue(), r.matched(), r.total(),
                    DeadLetterView.entries(r.selected(), r.serverNow())));
        } else {
            DeadLetterView.table(out(), r.selected(), r.serverNow());
            out().println(r.matched() + " dead letter(s) matched" + (r.selected().size() < r.matched()
                    ? ", showing the oldest " + r.selected().size() + " (raise --limit)" : "")
                    + "; " + r.total() + " in the dead-letter set(s) searched");
        }
        return ExitCodes.OK;
    }
}
