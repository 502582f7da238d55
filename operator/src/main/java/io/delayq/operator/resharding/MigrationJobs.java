package io.delayq.operator.resharding;

import io.delayq.operator.jobs.QueueJobs;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/** The operator's running migrations, at most one per DelayQueue, started whenever the plan says a mover must run ({@link ReshardPlan#moveTo}). */
public final class MigrationJobs extends QueueJobs<MigrationJob> {

    public MigrationJobs(Duration retryAfter, Clock clock) {
        super(retryAfter, clock);
    }

    /** The job of {@code key} moving to {@code to} (a job moving to another count is stopped and replaced). */
    public Optional<MigrationJob> ensure(String key, int to, Function<Integer, MigrationJob.Params> params) {
        return ensure(key, job -> job.to() == to, () -> new MigrationJob(params.apply(to)));
    }

    /** What the last job of {@code key} did, while the operator remembers it. */
    public Optional<MigrationJob.State> state(String key) {
        return job(key).map(MigrationJob::state);
    }
}
