package io.delayq.cli.deadletter;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueConnection;
import picocli.CommandLine.Command;

import java.util.List;

@Command(name = "purge", mixinStandardHelpOptions = true,
        description = "Delete dead letters and their payloads for good.",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:purged (or, with --dry-run, would purge) at least one", "1:no dead letter matched: nothing done",
                ExitCodes.L_USAGE, ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:",
                "  delayq dead purge --older-than 7d --dry-run",
                "  delayq dead purge --error-contains 'HTTP 410'",
                "  delayq dead purge --all"})
public class DeadPurgeCommand extends DeadActionCommand {
    @Override
    String verb() {
        return "purge";
    }

    @Override
    String pastTense() {
        return "purged";
    }

    @Override
    long act(QueueConnection queue, List<String> ids) {
        return queue.client().purgeDead(ids);
    }
}
