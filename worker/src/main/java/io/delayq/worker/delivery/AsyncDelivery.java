package io.delayq.worker.delivery;

import io.delayq.handler.Task;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A delivery that waits on the network without holding a thread: {@link #deliverAsync} starts the delivery and
 * returns at once, and the worker settles the task when the future completes. A worker running one spends its
 * {@code DELAYQ_CONCURRENCY} on deliveries in flight, not on threads: a thread parked per request costs a thread
 * (and its stack) per delivery in flight and a park and an unpark per delivery, which bounded a webhook worker on
 * two cores.
 */
public interface AsyncDelivery extends Delivery {
    /**
     * Starts delivering {@code task}; the future completes with the outcome and never exceptionally (a failure is an
     * outcome). Cancelling it abandons the delivery (the worker's handler deadline does), which must free what the
     * delivery holds.
     */
    CompletableFuture<Outcome> deliverAsync(Task task);

    /**
     * Whether the worker should use {@link #deliverAsync} here; false: it calls {@link #deliver} on a handler thread
     * per delivery in flight, as for a handler (for a delivery whose asynchronous form costs more on this machine).
     */
    default boolean runsAsync() {
        return true;
    }

    /** For a caller with a thread to spend: waits for {@link #deliverAsync}; an interrupt abandons the delivery. */
    @Override
    default Outcome deliver(Task task) {
        CompletableFuture<Outcome> delivery = deliverAsync(task);
        try {
            return delivery.get();
        } catch (InterruptedException e) {
            delivery.cancel(true);
            Thread.currentThread().interrupt();
            return new Outcome.Retry("interrupted (worker shutting down)", null);
        } catch (ExecutionException | CancellationException e) {
            return Outcome.of(e.getCause() != null ? e.getCause() : e);
        }
    }
}
