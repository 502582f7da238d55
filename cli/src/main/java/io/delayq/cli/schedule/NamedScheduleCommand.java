package io.delayq.cli.schedule;

import io.delayq.cli.ExitCodes;
import io.delayq.cli.QueueCommand;
import io.delayq.cli.QueueConnection;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.PutResult;
import picocli.CommandLine.Parameters;

/** pause, resume and remove: a command on one schedule named on the command line. */
abstract class NamedScheduleCommand extends QueueCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The schedule's name.")
    String name;

    @Override
    protected void validate() {
        CronSchedule.requireName(name);
    }

    /** Says so on stderr and answers the exit code when the queue has no such schedule. */
    int missing(QueueConnection queue) {
        err().println("no schedule named " + name + " in queue " + queue.queue());
        return ExitCodes.NOT_FOUND;
    }

    /** pause and resume: a no-op when the schedule already is in that state. */
    int setPaused(QueueConnection queue, boolean paused, String done, String already) {
        if (io.delayq.schedule.Schedules.of(queue.client()).get(name).isEmpty()) {
            return missing(queue);
        }
        PutResult r = paused ? io.delayq.schedule.Schedules.of(queue.client()).pause(name) : io.delayq.schedule.Schedules.of(queue.client()).resume(name);
        out().println((r.status() == PutResult.Status.UNCHANGED ? already : done) + ": " + name + " (revision " + r.revision() + ")");
        return ExitCodes.OK;
    }
}
