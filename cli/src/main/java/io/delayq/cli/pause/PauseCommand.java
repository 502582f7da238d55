package io.delayq.cli.pause;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.cli.text.Instants;
import io.delayq.pause.PauseState;
import picocli.CommandLine.Command;

@Command(name = "pause", mixinStandardHelpOptions = true,
        description = {"Pause a queue: every claim hands out nothing until 'delayq resume'. Nothing is lost or moved: scheduled "
                + "tasks keep their due times, tasks in flight finish, overdue tasks fire once resumed; the backlog keeps being reported.",
                "Unlike spec.suspend of a DelayQueue (which scales the workers to 0), the workers keep running, probing and reporting."},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {"0:paused (also when it already was)", "1:the queue does not exist in Redis", ExitCodes.L_USAGE,
                ExitCodes.L_REDIS, ExitCodes.L_INTERNAL},
        footer = {"%nExamples:", "  delayq pause --queue orders", "  delayq resume --queue orders"})
public class PauseCommand extends QueueCommand {
    @Override
    protected int run(QueueConnection queue) {
        PauseState s = queue.client().pause(Who.cli(environment()));
        out().println("paused queue '" + queue.queue() + "' (" + queue.shards() + " shards) since " + Instants.utc(s.pausedAt())
                + " by " + s.by());
        return ExitCodes.OK;
    }
}
