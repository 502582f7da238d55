package io.delayq.operator.jobs;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The operator's jobs of one kind, at most one per DelayQueue. The reconciler asks for one whenever its plan says the
 * job must run; reconciles run on the leader only, so only the leader runs jobs. A job that failed is started again
 * after {@code retryAfter}; one that ended well is kept for its state until forgotten.
 */
public class QueueJobs<J extends QueueJob> implements AutoCloseable {
    private final Map<String, J> jobs = new ConcurrentHashMap<>();
    private final Duration retryAfter;
    private final Clock clock;
    private volatile boolean closed;

    public QueueJobs(Duration retryAfter, Clock clock) {
        this.retryAfter = retryAfter;
        this.clock = clock;
    }

    /**
     * The job of {@code key}: the one there, when it does what is asked ({@code same}) and runs, ended well, or failed
     * less than {@code retryAfter} ago (then the status shows its error); else a new one from {@code create}, the
     * one there stopped.
     */
    protected Optional<J> ensure(String key, Predicate<J> same, Supplier<J> create) {
        if (closed) {
            // the operator is stopping: a reconcile still under way must not start what close() just stopped
            return Optional.empty();
        }
        return Optional.of(jobs.compute(key, (k, job) -> {
            if (job != null && same.test(job)) {
                QueueJob.Outcome s = job.state();
                if (s.running() || !s.failed() || s.endedAt().plus(retryAfter).isAfter(clock.instant())) {
                    return job;
                }
            } else if (job != null) {
                job.stop();
            }
            J fresh = create.get();
            fresh.start();
            return fresh;
        }));
    }

    /** The last job of {@code key}, while the operator remembers it. */
    public Optional<J> job(String key) {
        return Optional.ofNullable(jobs.get(key));
    }

    /** Forgets a job that is no longer needed: an ended one was kept only for its state. */
    public void forgetEnded(String key) {
        jobs.computeIfPresent(key, (k, job) -> job.state().running() ? job : null);
    }

    /** Stops the job of a DelayQueue that was deleted. */
    public void stop(String key) {
        J job = jobs.remove(key);
        if (job != null) {
            job.stop();
        }
    }

    /** Stops every job and waits briefly for each: the next leader resumes them from Redis. */
    @Override
    public void close() {
        closed = true;
        jobs.values().forEach(QueueJob::stop);
        for (J job : jobs.values()) {
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
