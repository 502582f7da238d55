package io.delayq.operator.resharding;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The operator's running migrations, at most one per DelayQueue. The reconciler asks for one whenever its
 * plan says a mover must run ({@link ReshardPlan#moveTo}); reconciles run on the leader only, so only the
 * leader moves tasks. A job that failed is started again after {@code retryAfter}.
 */
public final class MigrationJobs implements AutoCloseable {
    private final Map<String, MigrationJob> jobs = new ConcurrentHashMap<>();
    private final Duration retryAfter;
    private final Clock clock;
    private volatile boolean closed;

    public MigrationJobs(Duration retryAfter, Clock clock) {
        this.retryAfter = retryAfter;
        this.clock = clock;
    }

    /**
     * The job of {@code key} moving to {@code to}: the running one, else a new one from {@code params} (unless the
     * last one failed less than {@code retryAfter} ago: then that one, whose error the status shows).
     */
    public Optional<MigrationJob> ensure(String key, int to, Function<Integer, MigrationJob.Params> params) {
        if (closed) {
            // the operator is stopping: a reconcile still under way must not start what close() just stopped
            return Optional.empty();
        }
        return Optional.of(jobs.compute(key, (k, job) -> {
            if (job != null && job.to() == to) {
                MigrationJob.State s = job.state();
                if (s.running() || s.failed() && s.endedAt().plus(retryAfter).isAfter(clock.instant())) {
                    return job;
                }
            } else if (job != null) {
                job.stop();
            }
            return new MigrationJob(params.apply(to)).start();
        }));
    }

    /** What the last job of {@code key} did, while the operator remembers it. */
    public Optional<MigrationJob.State> state(String key) {
        return Optional.ofNullable(jobs.get(key)).map(MigrationJob::state);
    }

    /** Forgets a job that is no longer needed (the migration finished): a finished one is kept only for its state. */
    public void forgetEnded(String key) {
        jobs.computeIfPresent(key, (k, job) -> job.state().running() ? job : null);
    }

    /** Stops the job of a DelayQueue that was deleted. */
    public void stop(String key) {
        MigrationJob job = jobs.remove(key);
        if (job != null) {
            job.stop();
        }
    }

    /** Stops every job and waits briefly for each: the next leader resumes them from Redis. */
    @Override
    public void close() {
        closed = true;
        jobs.values().forEach(MigrationJob::stop);
        for (MigrationJob job : jobs.values()) {
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
