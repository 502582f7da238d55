package io.delayq.claim;

import java.util.List;
import java.util.Map;

/**
 * What one claim returned: the tasks, the server's clock, the earliest due time still waiting on
 * the shard ({@code -1} when none), which seeds the worker's local wake-up timer, and the tasks the
 * claim dead-lettered because their id, score or keys break the protocol. {@code lookedAhead} is false
 * when a claim that asked for tasks due soon ({@link ClaimAhead}) was kept to the due ones (a rate limit,
 * or groups on the shard); true otherwise. {@code wanted}: the groups capped at N running ({@link GroupCaps}) that
 * had tasks due but no permit for them, and how many tasks each would have got.
 */
public record ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks, List<RefusedTask> refused,
                         boolean lookedAhead, Map<String, Integer> wanted) {

    public ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks, List<RefusedTask> refused,
                      boolean lookedAhead) {
        this(shard, serverNow, nextDueAt, tasks, refused, lookedAhead, Map.of());
    }

    public ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks, List<RefusedTask> refused) {
        this(shard, serverNow, nextDueAt, tasks, refused, true);
    }

    public ClaimBatch(int shard, long serverNow, long nextDueAt, List<ClaimedTask> tasks) {
        this(shard, serverNow, nextDueAt, tasks, List.of());
    }

    public boolean hasNext() {
        return nextDueAt >= 0;
    }

    /** The tasks already due when the claim ran (the rest were claimed ahead of their due time). */
    public int dueCount() {
        int n = 0;
        for (ClaimedTask t : tasks) {
            if (t.dueAt() <= serverNow) {
                n++;
            }
        }
        return n;
    }
}
