package io.delayq.cli.backlog;

import io.delayq.backlog.QueueStats;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.layout.Layout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"The backlog per shard and in total: scheduled (due in the future), due now (not yet claimed), "
                + "in flight, dead, and how long the oldest unclaimed due task has been overdue.",
                "Each shard is read atomically against the Redis server clock."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:printed", "1:the queue does not exist in Redis", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq stats --redis redis://localhost:6379 --queue orders",
                "  delayq stats --output json | jq .total.dueNow"})
public class StatsCommand extends QueueCommand {
    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    @Override
    protected int run(QueueConnection queue) {
        QueueStats stats = queue.client().stats();
        Layout layout = io.delayq.redis.Replies.await(queue.client().protocol().refreshLayout(), queue.client().timeout());
        if (output == OutputFormat.JSON) {
            Json.print(out(), StatsView.json(stats, queue.shards(), layout));
        } else {
            StatsView.table(out(), stats, queue.shards(), queue.redactedUrl());
            StatsView.layout(out(), layout);
        }
        return ExitCodes.OK;
    }
}
