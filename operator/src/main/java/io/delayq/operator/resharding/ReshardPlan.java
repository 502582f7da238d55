package io.delayq.operator.resharding;

import io.delayq.layout.Layout;
import io.delayq.operator.sharding.ShardPlan;
import io.delayq.operator.sharding.WorkerRange;
import io.delayq.shard.ShardRange;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a DelayQueue's shard count asks for, given the layout Redis records: a pure function of
 * {@code spec.shards}, {@code spec.shardsPerWorker} and the observed layout, unit-tested without a client.
 * <ul>
 *   <li>{@link Phase#STEADY}: the queue has the spec's count; one Deployment per range of it.</li>
 *   <li>{@link Phase#STARTING}: the spec asks for more shards than Redis records and no migration runs; the
 *       old layout's Deployments stay as they are and the mover must start (it writes reshard_begin). New
 *       Deployments wait for it: a worker told the new count before the meta hash knows it would refuse to start.</li>
 *   <li>{@link Phase#MOVING}: a migration runs; the new layout's ranges run beside the old layout's, so every
 *       shard of both has a worker, and the mover must run. A range both layouts have keeps its old Deployment
 *       (same name, same shards claimed) untouched until the end, then rolls to the new count. A spec asking for
 *       yet another count waits: {@link #refusal} says so.</li>
 * </ul>
 * The old layout's shards are always a subset of the new one's (0..M-1 within 0..N-1), so retiring the old
 * Deployments at the end strands nothing.
 *
 * @param from    the count tasks move from (STARTING, MOVING), else the current count
 * @param to      the count the running or starting migration grows to, else the current count
 * @param moveTo  the count the mover must drive the queue to, 0 when no mover should run
 * @param refusal why the spec's count is not being applied yet (a second change while one runs), or null
 */
public record ReshardPlan(Phase phase, int from, int to, int wanted, List<WorkerRange> workers, int moveTo, String refusal) {

    public enum Phase { STEADY, STARTING, MOVING }

    public ReshardPlan {
        workers = List.copyOf(workers);
    }

    /**
     * @param observed the layout in the queue's meta hash, or null when it is not known (no look at Redis):
     *                 then the spec's count is taken as current
     */
    public static ReshardPlan of(int wanted, Integer shardsPerWorker, Layout observed) {
        if (observed == null || !observed.migrating() && observed.shards() >= wanted) {
            // A queue with more shards than the spec is the reader's problem (a shrink is refused there); its
            // workers are planned from the spec alone, as for a queue that was never resharded.
            return new ReshardPlan(Phase.STEADY, wanted, wanted, wanted, layout(wanted, shardsPerWorker, false), 0, null);
        }
        if (!observed.migrating()) {
            int current = observed.shards();
            return new ReshardPlan(Phase.STARTING, current, wanted, wanted, layout(current, shardsPerWorker, false), wanted, null);
        }
        int from = observed.from();
        int to = observed.shards();
        List<WorkerRange> workers = new ArrayList<>();
        Set<ShardRange> old = new LinkedHashSet<>(ranges(from, shardsPerWorker));
        for (ShardRange r : ranges(to, shardsPerWorker)) {
            workers.add(new WorkerRange(r, old.contains(r) ? from : to, false));
        }
        old.removeAll(ranges(to, shardsPerWorker));
        old.forEach(r -> workers.add(new WorkerRange(r, from, true)));
        String refusal = wanted == to ? null
                : "spec.shards: a migration from " + from + " to " + to + " shards is running; the change to " + wanted
                + " waits until it has finished (one migration at a time), then starts by itself";
        return new ReshardPlan(Phase.MOVING, from, to, wanted, workers, to, refusal);
    }

    public boolean resharding() {
        return phase != Phase.STEADY;
    }

    /** The shard ranges of every planned Deployment, in plan order. */
    public List<ShardRange> ranges() {
        return workers.stream().map(WorkerRange::range).toList();
    }

    private static List<WorkerRange> layout(int shards, Integer shardsPerWorker, boolean retiring) {
        return ranges(shards, shardsPerWorker).stream().map(r -> new WorkerRange(r, shards, retiring)).toList();
    }

    /** A split of another count than the spec's: shardsPerWorker larger than that count means one range. */
    private static List<ShardRange> ranges(int shards, Integer shardsPerWorker) {
        return ShardPlan.ranges(shards, shardsPerWorker == null ? null : Math.min(shardsPerWorker, shards));
    }
}
