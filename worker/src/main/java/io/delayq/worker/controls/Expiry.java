package io.delayq.worker.controls;

import io.delayq.claim.ClaimedTask;
import io.delayq.task.ExpiryAction;
import io.delayq.task.TaskOptions;
import io.delayq.worker.delivery.Outcome;

import java.time.Instant;

/**
 * The per-task expiry, judged when a claimed task is about to start, on the Redis server's clock
 * (as the worker learned it from its claims): a task whose {@code expiresAt} has passed is not run.
 * It is checked before every attempt, so a task that keeps failing past its expiry stops there too.
 */
public final class Expiry {
    private Expiry() {
    }

    /** {@link Outcome.Expired} when {@code task} must not start at {@code serverNow}, else null. */
    public static Outcome.Expired judge(TaskOptions options, ClaimedTask task, long serverNow) {
        Long at = options.expiresAt();
        if (at == null || serverNow < at) {
            return null;
        }
        String reason = "expired: not started by its expiresAt " + Instant.ofEpochMilli(at) + " (attempt " + task.attempt()
                + " claimed " + (serverNow - at) + " ms after it, " + Math.max(0, serverNow - task.dueAt()) + " ms after its due time)";
        return new Outcome.Expired(reason, options.expiryAction() == ExpiryAction.DISCARD);
    }
}
