package io.delayq.cli.backlog;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.ForecastReader;
import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Json;
import io.delayq.cli.text.OutputFormat;
import io.delayq.layout.Layout;
import io.delayq.redis.Replies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.CompletableFuture;

@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"The backlog per shard and in total: scheduled (due in the future), due now (not yet claimed), "
                + "in flight, dead, and how long the oldest unclaimed due task has been overdue.",
                "Beside it the due forecast: how many waiting tasks fall due within the next 1, 5, 15 and 60 minutes, "
                        + "and when the next one is due (absolute and from now).",
                "Each shard is read atomically against the Redis server clock."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:printed", "1:the queue does not exist in Redis", ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq stats --redis redis://localhost:6379 --queue orders",
                "  delayq stats --output json | jq .total.dueNow",
                "  delayq stats --output json | jq '.forecast.dueWithin[\"5m\"]'"})
public class StatsCommand extends QueueCommand {
    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", description = "text (default) or json.")
    OutputFormat output;

    @Override
    protected int run(QueueConnection queue) {
        QueueStats stats = queue.client().stats();
        List<DueForecast> forecasts = forecasts(queue, stats);
        Layout layout = Replies.await(queue.client().protocol().refreshLayout(), queue.client().timeout());
        if (output == OutputFormat.JSON) {
            Json.print(out(), StatsView.json(stats, forecasts, queue.shards(), layout));
        } else {
            StatsView.table(out(), stats, queue.shards(), queue.redactedUrl());
            StatsView.forecast(out(), DueForecast.combine(forecasts));
            StatsView.layout(out(), layout);
        }
        return ExitCodes.OK;
    }

    /** The due forecast of each shard the stats cover, in their order (one forecast.lua per shard, in parallel). */
    private static List<DueForecast> forecasts(QueueConnection queue, QueueStats stats) {
        ForecastReader reader = new ForecastReader(queue.client().protocol().scope());
        List<CompletableFuture<DueForecast>> reads = stats.shards().stream().mapToInt(ShardStats::shard)
                .mapToObj(s -> reader.forecast(s, DueForecast.DEFAULT_WINDOWS).toCompletableFuture()).toList();
        return Replies.await(CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(v -> reads.stream().map(CompletableFuture::join).toList()), queue.client().timeout());
    }
}
