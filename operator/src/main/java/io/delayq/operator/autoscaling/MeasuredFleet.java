package io.delayq.operator.autoscaling;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the fleet itself reports, for Forecast autoscaling: how long its pods took from creation to Ready, and how
 * many tasks one replica settles per second while it has more due work than it can take. Either may be unknown
 * (no pod has become Ready yet; the workers were never busy): the spec'd {@code warmup} and
 * {@code targetTasksPerReplicaPerSecond} stand in for it.
 *
 * @param podStartup               the measured pod start-up, or empty
 * @param tasksPerReplicaPerSecond the measured per-replica throughput, or empty
 * @param checkInterval            the time between two of the operator's looks at the queue: a task that enters the
 *                                 lead window just after a look is seen this much later
 */
public record MeasuredFleet(Optional<Duration> podStartup, OptionalDouble tasksPerReplicaPerSecond, Duration checkInterval) {

    /** Weight of a fresh throughput figure against the one remembered: one busy spell neither rules nor is ignored. */
    static final double NEW_WEIGHT = 0.5;

    public static MeasuredFleet none() {
        return new MeasuredFleet(Optional.empty(), OptionalDouble.empty(), Duration.ZERO);
    }

    /**
     * With a pod start-up read now: it replaces the remembered one. Empty (a Deployment at zero has no pods to read)
     * keeps the last.
     */
    public MeasuredFleet withStartup(Optional<Duration> startupNow) {
        return startupNow.isPresent() ? new MeasuredFleet(startupNow, tasksPerReplicaPerSecond, checkInterval) : this;
    }

    /** With a throughput read now: averaged with the remembered one. Empty (the workers were not busy) keeps the last. */
    public MeasuredFleet withThroughput(OptionalDouble rateNow) {
        if (rateNow.isEmpty()) {
            return this;
        }
        OptionalDouble rate = tasksPerReplicaPerSecond.isEmpty() ? rateNow
                : OptionalDouble.of(NEW_WEIGHT * rateNow.getAsDouble() + (1 - NEW_WEIGHT) * tasksPerReplicaPerSecond.getAsDouble());
        return new MeasuredFleet(podStartup, rate, checkInterval);
    }
}
