package io.delayq.cli.upgrade;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.upgrade.ProtocolUpgrade;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;

@Command(name = "upgrade", mixinStandardHelpOptions = true,
        description = {"Upgrade a live queue of protocol 2 to protocol 3 in place (docs/protocol3.md, \"Upgrade in place\"): record "
                + "protocol 3 in the queue's meta, then move every waiting task and dead letter of each shard into protocol 3's "
                + "buckets in bounded steps, with its record, level, attempts and last error, while producers and workers go on. "
                + "The tasks protocol 2 holds in flight finish there; the command waits --wait for them. Run it again after a "
                + "crash, or to finish the shards whose tasks were still in flight.",
                "Protocol 3 is in development: upgrade only queues whose workers run this version."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:upgraded: nothing of protocol 2 is left", "1:upgraded, but tasks protocol 2 holds in flight were still running "
                + "after --wait (run it again later), or the queue does not exist in Redis",
                "2:bad input (a reshard running)", ExitCodes.L_REDIS,
                ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq upgrade --queue orders", "  delayq upgrade --queue orders --wait 5m"})
public class UpgradeCommand extends QueueCommand {
    @Option(names = "--wait", paramLabel = "DURATION", converter = io.delayq.cli.text.DurationConverter.class, defaultValue = "60s",
            description = "How long to wait for the tasks protocol 2 holds in flight to finish (default 60s).")
    Duration wait;

    @Override
    protected int run(QueueConnection queue) {
        ProtocolUpgrade.Result r = new ProtocolUpgrade(queue.client().protocol(), queue.timeout(), wait).run();
        out().println("queue '" + queue.queue() + "' is on protocol 3: " + r.waitingAdopted() + " waiting task(s) and " + r.deadAdopted()
                + " dead letter(s) moved in " + r.steps() + " step(s)");
        if (!r.done()) {
            out().println(r.stillInFlight() + " task(s) of protocol 2 still in flight: they finish there; run 'delayq upgrade' again later to "
                    + "finish their shards");
            return ExitCodes.NOT_FOUND;
        }
        out().println("nothing of protocol 2 is left");
        return ExitCodes.OK;
    }
}
