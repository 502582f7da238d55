package io.delayq.schedule;

import java.time.Instant;

/**
 * A schedule as the CLI, the operator's status and the console show it.
 *
 * @param nextFire      the next occurrence after now (null when paused or past its end)
 * @param lastFired     the latest occurrence that fired (enqueued and due), null when none yet
 * @param lastTaskId    the task id of that occurrence (inspect it for details)
 * @param lastOutcome   what became of that task
 * @param planned       a planner has taken up the current revision (false right after a change, or
 *                      when no worker runs the queue)
 */
public record ScheduleStatus(CronSchedule definition, long revision, Instant updatedAt, Instant nextFire, Instant lastFired,
                             String lastTaskId, Outcome lastOutcome, long missed, long late, boolean planned) {

    public String name() {
        return definition.name();
    }

    /** What became of an occurrence's task, as far as the queue still knows it. */
    public enum Outcome {
        /** No occurrence has fired yet. */
        NONE,
        /** Due and waiting for a worker (first attempt). */
        PENDING,
        /** A worker holds it now. */
        RUNNING,
        /** A handler failed; it waits for its next attempt. */
        RETRYING,
        /** Acked: the task is gone from the queue. */
        SUCCEEDED,
        /** Dead-lettered after its last attempt. */
        DEAD;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
