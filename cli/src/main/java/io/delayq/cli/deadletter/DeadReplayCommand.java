package io.delayq.cli.deadletter;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;

import java.util.List;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Give dead letters a fresh start: due now, attempts reset, payload and priority kept.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:replayed (or, with --dry-run, would replay) at least one", "1:no dead letter matched: nothing done",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq dead replay order-8812",
                "  delayq dead replay --error-contains 'connect timed out' --newer-than 2h --dry-run",
                "  delayq dead replay --all --limit 1000        # the oldest 1000"})
public class DeadReplayCommand extends DeadActionCommand {
    @Override
    String verb() {
        return "replay";
    }

    @Override
    String pastTense() {
        return "replayed";
    }

    @Override
    long act(QueueConnection queue, List<String> ids) {
        return queue.client().replayDead(ids);
    }
}
