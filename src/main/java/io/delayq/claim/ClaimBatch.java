package io.delayq.claim;

import java.util.List;

/**
 * What one claim returned: the tasks, the server's clock, and the earliest due time still waiting
 * on the shard ({@code -1} when none), which seeds the worker's local wake-up timer.
 */
public record ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks) {

    public boolean hasNext() {
        return nextDueAt >= 0;
    }
}
