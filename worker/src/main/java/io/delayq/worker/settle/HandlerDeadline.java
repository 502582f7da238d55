package io.delayq.worker.settle;

import io.delayq.DurationText;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Without a deadline a hung handler keeps its task forever: the heartbeat renews the lease, so
 * no other worker can take it over. Past the deadline the task is retried (backoff and attempt
 * count as for any failure) and the handler's thread is interrupted; a handler that ignores the
 * interrupt keeps its thread and concurrency slot until it returns, and its result is ignored. An asynchronous
 * delivery's request is cancelled instead (its connection closed), which frees its slot at once.
 */
public final class HandlerDeadline implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(HandlerDeadline.class);
    private final InflightRegistry registry;
    private final Settler settler;
    private final WorkerMetrics metrics;
    private final Duration timeout;
    private final String abandoned;

    /** @param abandoned what abandoning a task's run does, for the error it is retried with */
    public HandlerDeadline(InflightRegistry registry, Settler settler, WorkerMetrics metrics, Duration timeout, String abandoned) {
        this.abandoned = abandoned;
        this.registry = registry;
        this.settler = settler;
        this.metrics = metrics;
        this.timeout = timeout;
    }

    /** How often to look: a quarter of the deadline, at least every second. */
    public Duration interval() {
        return Duration.ofMillis(Math.max(25, Math.min(1000, timeout.toMillis() / 4)));
    }

    @Override
    public void run() {
        long now = System.nanoTime();
        for (Leased l : registry.all()) {
            long since = l.runningSinceNanos();
            if (since != 0 && now - since > timeout.toNanos()) {
                String error = "handler did not finish within " + DurationText.format(timeout) + " (DELAYQ_HANDLER_TIMEOUT); " + abandoned;
                if (settler.abandon(l, new Outcome.Retry(error, null))) {
                    metrics.handlerTimedOut();
                    LOG.warn("task {} on shard {}: {}", l.id(), l.task().shard(), error);
                }
            }
        }
    }
}
