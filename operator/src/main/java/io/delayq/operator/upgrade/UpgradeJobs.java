package io.delayq.operator.upgrade;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The operator's running upgrades to protocol 3, at most one per DelayQueue. The reconciler asks for one whenever its
 * plan says so ({@link UpgradePlan.Action#UPGRADE}); reconciles run on the leader only, so only the leader upgrades. A
 * job that failed is started again after {@code retryAfter}; one that finished is kept for its state until forgotten.
 */
public final class UpgradeJobs implements AutoCloseable {
    private final Map<String, UpgradeJob> jobs = new ConcurrentHashMap<>();
    private final Duration retryAfter;
    private final Clock clock;
    private volatile boolean closed;

    public UpgradeJobs(Duration retryAfter, Clock clock) {
        this.retryAfter = retryAfter;
        this.clock = clock;
    }

    /** The job of {@code key}: the running or finished one, one that failed less than {@code retryAfter} ago, else a new one. */
    public Optional<UpgradeJob> ensure(String key, Supplier<UpgradeJob.Params> params) {
        if (closed) {
            // the operator is stopping: a reconcile still under way must not start what close() just stopped
            return Optional.empty();
        }
        return Optional.of(jobs.compute(key, (k, job) -> {
            if (job != null) {
                UpgradeJob.State s = job.state();
                if (s.running() || s.finished() || s.failed() && s.endedAt().plus(retryAfter).isAfter(clock.instant())) {
                    return job;
                }
            }
            return new UpgradeJob(params.get()).start();
        }));
    }

    /** What the last job of {@code key} did, while the operator remembers it. */
    public Optional<UpgradeJob.State> state(String key) {
        return Optional.ofNullable(jobs.get(key)).map(UpgradeJob::state);
    }

    /** Forgets an ended job that is no longer needed (the status shows its outcome). */
    public void forgetEnded(String key) {
        jobs.computeIfPresent(key, (k, job) -> job.state().running() ? job : null);
    }

    /** Stops the job of a DelayQueue that was deleted. */
    public void stop(String key) {
        UpgradeJob job = jobs.remove(key);
        if (job != null) {
            job.stop();
        }
    }

    /** Stops every job and waits briefly for each: the next leader resumes them from Redis. */
    @Override
    public void close() {
        closed = true;
        jobs.values().forEach(UpgradeJob::stop);
        for (UpgradeJob job : jobs.values()) {
            try {
                job.awaitEnd(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        jobs.clear();
    }
}
