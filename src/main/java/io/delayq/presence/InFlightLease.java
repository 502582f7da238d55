package io.delayq.presence;

import io.delayq.DurationText;
import io.delayq.task.TaskInfo;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who runs a task in flight, as far as Redis can tell, and the one sentence that says so. The CLI's
 * {@code inspect} and the console's task page both show {@link #summary()}, so that they never give two
 * answers about the same lease.
 * <p>
 * The in-flight set holds only the lease's expiry (its fencing token); each worker reports the leases it
 * holds, with their tokens, at its heartbeat. A live worker owning the task's shard that reported this very
 * token holds the claim. Without such a report the shard's live owners are named (one of them claimed it since
 * its last heartbeat, or a worker gone since holds it); without any live owner the task waits for its lease to
 * run out and for a worker of its shard to run it again.
 *
 * @param holder the live worker that reported holding this lease, or null
 * @param owners the live workers owning the task's shard
 * @param queueHasLiveWorkers whether any worker of the queue is alive (every worker sweeps expired leases of all shards)
 */
public record InFlightLease(String taskId, int shard, int attempt, long leaseExpiresAt, long serverNow, WorkerPresence holder,
                            List<WorkerPresence> owners, boolean queueHasLiveWorkers) {

    public InFlightLease {
        Objects.requireNonNull(taskId, "taskId");
        owners = List.copyOf(owners);
    }

    /** Reads the presence registry for {@code task}, which must be in flight (its score is the lease expiry). */
    public static InFlightLease read(PresenceRegistry registry, TaskInfo task) {
        if (task.state() != TaskInfo.State.IN_FLIGHT) {
            throw new IllegalArgumentException("task '" + task.id() + "' is not in flight but " + task.state());
        }
        List<WorkerPresence> alive = registry.alive(task.serverNow());
        List<WorkerPresence> owners = alive.stream().filter(w -> w.owns(task.shard())).toList();
        Map<String, List<PresenceRegistry.HeldLease>> held = registry.held(owners.stream().map(WorkerPresence::id).toList());
        WorkerPresence holder = owners.stream()
                .filter(w -> held.getOrDefault(w.id(), List.of()).stream()
                        .anyMatch(h -> h.taskId().equals(task.id()) && h.token() == task.score()))
                .findFirst().orElse(null);
        return new InFlightLease(task.id(), task.shard(), task.attempts(), task.score(), task.serverNow(), holder, owners, !alive.isEmpty());
    }

    public boolean expired() {
        return leaseExpiresAt <= serverNow;
    }

    /** What is happening to the task and what comes next, in one sentence (times on the Redis clock): what {@code inspect} prints. */
    public String summary() {
        String expiry = Instant.ofEpochMilli(leaseExpiresAt) + " (" + DurationText.relative(leaseExpiresAt, serverNow) + ")";
        if (expired()) {
            return "in flight; lease expired at " + expiry + ": " + who();
        }
        if (holder != null) {
            return "a worker (" + holder.id() + " on " + holder.host() + ") is running it (attempt " + attempt + "); lease expires at "
                    + expiry + " unless it extends it; " + reported();
        }
        return "in flight (attempt " + attempt + "); lease expires at " + expiry + "; " + who();
    }

    /**
     * The same answer without the lease's expiry, for a page that shows the expiry on a line of its own: who runs
     * the task, or why no one does and what happens next.
     */
    public String who() {
        if (expired()) {
            return "its worker died or stalled; the next lease sweep puts it back to due (or dead-letters it after its last attempt)"
                    + (queueHasLiveWorkers ? "" : "; no worker of this queue is alive to sweep it: that happens when one starts");
        }
        if (holder != null) {
            return "a worker (" + holder.id() + " on " + holder.host() + ") is running it (attempt " + attempt + "); " + reported();
        }
        if (!owners.isEmpty()) {
            return "not reported by the live workers owning shard " + shard + " ("
                    + String.join(", ", owners.stream().map(WorkerPresence::id).toList()) + "): one of them claimed it "
                    + "since its last heartbeat (the next one reports it), or a worker gone since holds it and it is reclaimed "
                    + "when the lease expires";
        }
        return "no live worker owns shard " + shard + " — it will be reclaimed when the lease expires and run when a worker for that shard starts";
    }

    private String reported() {
        return "reported with this lease's token at its heartbeat " + DurationText.relative(holder.heartbeatAt(), serverNow);
    }
}
