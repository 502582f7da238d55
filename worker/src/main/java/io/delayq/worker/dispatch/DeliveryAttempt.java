package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimedTask;
import io.delayq.handler.Progress;
import io.delayq.worker.config.RetryPolicy;
import io.delayq.worker.controls.Expiry;
import io.delayq.worker.controls.TaskRetry;
import io.delayq.worker.delivery.AsyncDelivery;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.tracing.DeliveryTracing;

import java.util.concurrent.CompletableFuture;

/**
 * One attempt of one claimed task: decode its record, apply its expiry (on the Redis clock), deliver it
 * inside its trace span. What the outcome does in Redis is the settler's job.
 */
public final class DeliveryAttempt {
    private final String queue;
    private final Delivery delivery;
    private final ServerClock clock;
    private final RetryPolicy retry;
    private final DeliveryTracing tracing;

    public DeliveryAttempt(String queue, Delivery delivery, ServerClock clock, RetryPolicy retry, DeliveryTracing tracing) {
        this.queue = queue;
        this.delivery = delivery;
        this.clock = clock;
        this.retry = retry;
        this.tracing = tracing;
    }

    /** Whether the delivery waits on the network without a thread: then {@link #start} runs attempts, not {@link #run}. */
    public boolean asynchronous() {
        return delivery instanceof AsyncDelivery async && async.runsAsync();
    }

    /** @throws TaskDecoder.MalformedTask when the record breaks the protocol (the caller dead-letters it) */
    public Outcome run(ClaimedTask claimed) throws TaskDecoder.MalformedTask {
        return run(claimed, Progress.DISCARDED);
    }

    /**
     * @param progress where the handler's progress reports go
     * @throws TaskDecoder.MalformedTask when the record breaks the protocol (the caller dead-letters it)
     */
    public Outcome run(ClaimedTask claimed, Progress progress) throws TaskDecoder.MalformedTask {
        TaskDecoder.Decoded decoded = TaskDecoder.decodeWithOptions(queue, claimed);
        long now = clock.nowMillis();
        int maxAttempts = TaskRetry.of(retry, decoded.options()).maxAttempts();
        return tracing.around(claimed, decoded.options(), now - claimed.dueAt(), maxAttempts, () -> {
            Outcome expired = Expiry.judge(decoded.options(), claimed, now);
            return expired != null ? expired : delivery.deliver(decoded.task().withProgress(progress));
        });
    }

    /**
     * As {@link #run}, for an {@link AsyncDelivery}: returns once the delivery started; the future completes with its
     * outcome (at once for an expired task).
     *
     * @throws TaskDecoder.MalformedTask when the record breaks the protocol (the caller dead-letters it)
     */
    public CompletableFuture<Outcome> start(ClaimedTask claimed) throws TaskDecoder.MalformedTask {
        AsyncDelivery async = (AsyncDelivery) delivery;
        TaskDecoder.Decoded decoded = TaskDecoder.decodeWithOptions(queue, claimed);
        long now = clock.nowMillis();
        int maxAttempts = TaskRetry.of(retry, decoded.options()).maxAttempts();
        return tracing.aroundAsync(claimed, decoded.options(), now - claimed.dueAt(), maxAttempts, () -> {
            Outcome expired = Expiry.judge(decoded.options(), claimed, now);
            return expired != null ? CompletableFuture.completedFuture(expired) : async.deliverAsync(decoded.task());
        });
    }
}
