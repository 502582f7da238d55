package io.delayq.claim;

import io.delayq.InvalidInputException;

import java.time.Duration;

/**
 * What a claim may take beyond the due tasks (claim.lua, ARGV[7] and ARGV[8]): tasks due within {@code window} from
 * the server's now, at most {@code maxTasks} of them beyond the batch (held tasks take no handler slot), when the due
 * tasks did not fill the batch. The worker holds such a task
 * until the server clock reads its due time; from the claim on it is in flight (cancel answers "inflight").
 * {@link #NONE} sends neither argument, so the claim behaves exactly as one that knows nothing of them.
 */
public record ClaimAhead(Duration window, int maxTasks) {
    public static final ClaimAhead NONE = new ClaimAhead(Duration.ZERO, 0);

    public ClaimAhead {
        if (window == null || window.isNegative()) {
            throw new InvalidInputException("claimAhead", "must be 0 (none) or more, got " + window);
        }
        if (maxTasks < 0) {
            throw new InvalidInputException("claimAheadMax", "must be 0 or more, got " + maxTasks);
        }
    }

    /** The same window, with room for {@code n} tasks. */
    public ClaimAhead withRoom(int n) {
        return new ClaimAhead(window, Math.max(0, n));
    }

    public boolean enabled() {
        return !window.isZero();
    }
}
