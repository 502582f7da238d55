package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.progress.ProgressWrites;
import io.delayq.worker.settle.Settler;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one claimed task on a handler thread: records its lag, runs the attempt ({@link DeliveryAttempt}: record, expiry,
 * trace span, delivery; the handler's progress reports go to {@link ProgressWrites}) and settles the outcome.
 * Claiming ({@link ClaimLoop}) and running are apart, so that how much is claimed never depends on how a task runs.
 *
 * <p>An asynchronous delivery (a webhook) only starts on the handler thread, which goes on to the next task; the
 * outcome is settled when the delivery completes, on whichever thread completes it. Those deliveries in flight are
 * counted, so that a graceful stop waits for them as it waits for the handler threads.
 */
public final class TaskRunner {
    private static final CompletableFuture<Void> RAN = CompletableFuture.completedFuture(null);
    private final DeliveryAttempt attempt;
    private final Settler settler;
    private final WorkerMetrics metrics;
    private final ServerClock clock;
    private final MalformedTasks malformed;
    private final ProgressWrites progress;
    private final Pending deliveries = new Pending();
    private final InFlightLimit inFlight;

    /** @param concurrency the most asynchronous deliveries in flight at once (handlers are bounded by their threads) */
    public TaskRunner(String queue, DeliveryAttempt attempt, Settler settler, WorkerMetrics metrics, ServerClock clock, ProgressWrites progress,
                      int concurrency) {
        this.inFlight = new InFlightLimit(concurrency);
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

    /** Whether deliveries complete without a thread waiting for them (then few handler threads start them all). */
    public boolean asynchronous() {
        return attempt.asynchronous();
    }

    /**
     * Runs the task; the future completes once its outcome went to the settler: at once for a handler, which ran on
     * this thread, when the request completes for an asynchronous delivery. It never completes exceptionally.
     */
    public CompletableFuture<Void> run(Leased leased) {
        if (attempt.asynchronous()) {
            return start(leased);
        }
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
        return RAN;
    }

    /** Starts the delivery when the in-flight limit has room (at once, but for the claim buffer of a saturated worker). */
    private CompletableFuture<Void> start(Leased leased) {
        deliveries.begin();
        CompletableFuture<Void> settled = new CompletableFuture<>();
        inFlight.submit(() -> deliver(leased).whenComplete((v, e) -> {
            deliveries.end();
            settled.complete(null);
            inFlight.finished();
        }));
        return settled;
    }

    private CompletableFuture<Void> deliver(Leased leased) {
        ClaimedTask claimed = leased.task();
        metrics.lag(clock.nowMillis() - claimed.dueAt());
        long t0 = System.nanoTime();
        // the deadline's abandon may come before the request exists: it cancels the request once there is one
        CompletableFuture<Void> abandoned = new CompletableFuture<>();
        leased.startRun(() -> abandoned.complete(null));
        CompletableFuture<Outcome> delivery;
        try {
            delivery = attempt.start(claimed);
        } catch (TaskDecoder.MalformedTask e) {
            malformed.refusedRecord(claimed.shard(), claimed.id(), e.getMessage());
            delivery = CompletableFuture.completedFuture(new Outcome.Dead(e.getMessage()));
        } catch (RuntimeException | Error e) {
            delivery = CompletableFuture.completedFuture(Outcome.of(e));
        }
        CompletableFuture<Outcome> started = delivery;
        abandoned.thenRun(() -> started.cancel(true));
        return started.handle((outcome, failure) -> {
            leased.endRun();
            metrics.handled(System.nanoTime() - t0);
            // cancelled: the deadline abandoned it and settled in its place, so this settle is ignored
            settler.settle(leased, failure == null ? outcome
                    : failure instanceof CancellationException ? new Outcome.Retry("abandoned", null) : Outcome.of(failure));
            return null;
        });
    }

    /** Waits until the asynchronous deliveries started so far have completed and gone to the settler, at most {@code timeout}. */
    public boolean awaitDeliveries(Duration timeout) {
        return deliveries.awaitNone(timeout);
    }

    /** Asynchronous deliveries in flight. */
    public int deliveriesInFlight() {
        return deliveries.count();
    }
}
