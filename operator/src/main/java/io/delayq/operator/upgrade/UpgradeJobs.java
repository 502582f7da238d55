package io.delayq.operator.upgrade;

import io.delayq.operator.jobs.QueueJobs;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/** The operator's running upgrades to protocol 3, at most one per DelayQueue, started whenever {@link UpgradePlan} says so. */
public final class UpgradeJobs extends QueueJobs<UpgradeJob> {

    public UpgradeJobs(Duration retryAfter, Clock clock) {
        super(retryAfter, clock);
    }

    /** The job of {@code key}: the running or finished one, one that failed a moment ago, else a new one. */
    public Optional<UpgradeJob> ensure(String key, Supplier<UpgradeJob.Params> params) {
        return ensure(key, job -> true, () -> new UpgradeJob(params.get()));
    }

    /** What the last job of {@code key} did, while the operator remembers it. */
    public Optional<UpgradeJob.State> state(String key) {
        return job(key).map(UpgradeJob::state);
    }
}
