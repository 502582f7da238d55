package io.delayq.claim;

import java.util.List;

/**
 * What one claim returned: the tasks, the server's clock, the earliest due time still waiting on
 * the shard ({@code -1} when none), which seeds the worker's local wake-up timer, and the tasks the
 * claim dead-lettered because their id, score or keys break the protocol.
 */
public record ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks, List<RefusedTask> refused) {

    public ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks) {
        this(shard, serverNow, nextDueAt, tasks, List.of());
    }

    public boolean hasNext() {
        return nextDueAt >= 0;
    }
}
