package io.delayq.operator.autoscaling;

import io.delayq.backlog.QueueStats;
import io.delayq.presence.WorkerPresence;
import io.delayq.shard.ShardRange;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Tasks one replica settles per second while it is busy, from two looks at the queue: the count of deliveries each
 * worker reports in its presence heartbeat (its own {@code delayq_tasks_total}), over the time between its two
 * heartbeats. Only workers whose range had due work waiting at both looks (at least a second of the work the range's
 * workers are expected to do) and was not paused count: a worker that keeps up with a trickle fires what arrives,
 * not what it can.
 */
public final class ReplicaThroughput {

    /** One look at the queue: the backlog of each worker range and the workers alive at that moment. */
    public record Look(Map<ShardRange, QueueStats> backlog, List<WorkerPresence> workers) {
    }

    /** Least heartbeat time, summed over the workers measured, that gives a figure: less is noise. */
    static final Duration LEAST_SPAN = Duration.ofSeconds(5);

    private ReplicaThroughput() {
    }

    /**
     * @param expectedPerReplica what one replica is taken to do now (the last measurement, else the spec'd figure):
     *                           sets how much due work makes a range busy
     * @return tasks per second per replica, or empty when no worker was busy long enough, or none settled anything
     */
    public static OptionalDouble between(Look before, Look now, double expectedPerReplica) {
        Map<String, WorkerPresence> earlier = before.workers().stream()
                .collect(Collectors.toMap(WorkerPresence::id, Function.identity(), (a, b) -> a));
        long delivered = 0;
        long spanMillis = 0;
        for (WorkerPresence w : now.workers()) {
            WorkerPresence e = earlier.get(w.id());
            if (e == null || e.delivered() < 0 || w.delivered() < e.delivered() || w.heartbeatAt() <= e.heartbeatAt()
                    || !busy(w.shards(), before, now, expectedPerReplica)) {
                continue;
            }
            delivered += w.delivered() - e.delivered();
            spanMillis += w.heartbeatAt() - e.heartbeatAt();
        }
        if (delivered == 0 || spanMillis < LEAST_SPAN.toMillis()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(delivered * 1000.0 / spanMillis);
    }

    private static boolean busy(ShardRange range, Look before, Look now, double expectedPerReplica) {
        long workers = now.workers().stream().filter(w -> w.shards().equals(range)).count();
        double enough = Math.max(1, workers * expectedPerReplica);
        return busyAt(before, range, enough) && busyAt(now, range, enough);
    }

    private static boolean busyAt(Look look, ShardRange range, double enough) {
        QueueStats stats = look.backlog().get(range);
        return stats != null && stats.pausedShards() == 0 && stats.due() >= enough;
    }
}
