package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.progress.ProgressWrites;
import io.delayq.worker.settle.Settler;

/**
 * Runs one claimed task on a handler thread: records its lag, runs the attempt ({@link DeliveryAttempt}: record, expiry,
 * trace span, delivery; the handler's progress reports go to {@link ProgressWrites}) and settles the outcome.
 * Claiming ({@link ClaimLoop}) and running are apart, so that how much is claimed never depends on how a task runs.
 */
public final class TaskRunner {
    private final DeliveryAttempt attempt;
    private final Settler settler;
    private final WorkerMetrics metrics;
    private final ServerClock clock;
    private final MalformedTasks malformed;
    private final ProgressWrites progress;

    public TaskRunner(String queue, DeliveryAttempt attempt, Settler settler, WorkerMetrics metrics, ServerClock clock, ProgressWrites progress) {
        this.attempt = attempt;
        this.progress = progress;
        this.settler = settler;
        this.metrics = metrics;
        this.clock = clock;
        this.malformed = new MalformedTasks(queue, metrics);
    }

    MalformedTasks malformed() {
        return malformed;
    }

    public void run(Leased leased) {
        ClaimedTask claimed = leased.task();
        metrics.lag(clock.nowMillis() - claimed.dueAt());
        Outcome outcome;
        long t0 = System.nanoTime();
        leased.startRun(Thread.currentThread());
        try {
            outcome = attempt.run(claimed, progress.of(leased));
        } catch (TaskDecoder.MalformedTask e) {
            malformed.refusedRecord(claimed.shard(), claimed.id(), e.getMessage());
            outcome = new Outcome.Dead(e.getMessage());
        } catch (RuntimeException | Error e) {
            // whatever goes wrong, the task is settled: an escaped error would leave it leased forever
            outcome = Outcome.of(e);
        } finally {
            leased.endRun();
            // an abandoned handler may not have seen its interrupt: the next task must not inherit it
            Thread.interrupted();
        }
        metrics.handled(System.nanoTime() - t0);
        settler.settle(leased, outcome);
    }
}
