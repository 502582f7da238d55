package io.delayq.cli.pause;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.pause.PauseState;
import picocli.CommandLine.Command;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resume a paused queue: claims hand out due tasks again and the workers are woken at once."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:resumed (also when it was not paused)", "1:the queue does not exist in Redis", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq resume --queue orders"})
public class ResumeCommand extends QueueCommand {
    @Override
    protected int run(QueueConnection queue) {
        PauseState before = queue.client().pauseState();
        queue.client().resume(Who.cli(environment()));
        out().println((before.paused() ? "resumed" : "was not paused; made sure every shard runs:") + " queue '" + queue.queue() + "'");
        return ExitCodes.OK;
    }
}
