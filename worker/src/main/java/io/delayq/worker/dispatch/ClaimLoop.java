package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.queue.QueueProtocol;
import io.delayq.shard.ShardRange;
import io.delayq.worker.delivery.Delivery;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.delivery.Task;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.ops.RedisHealth;
import io.delayq.worker.settle.Settler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * The heart of the worker. For the shard that is due soonest: claim at most as many tasks as
 * there are free handler slots (prefetching more would only turn into lease expiries); when the
 * claim came back full, claim again at once, otherwise sleep until the shard's next due time or
 * the poll interval, whichever is sooner, unless a marker or freed capacity wakes it earlier.
 */
public final class ClaimLoop implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ClaimLoop.class);

    private final QueueProtocol protocol;
    private final ShardRange range;
    private final int batchSize;
    private final Duration poll;
    private final Duration lease;
    private final RateLimit rate;
    private final Semaphore slots;
    private final ExecutorService handlers;
    private final Delivery delivery;
    private final InflightRegistry registry;
    private final Settler settler;
    private final WorkerMetrics metrics;
    private final ServerClock clock;
    private final WakeBoard board;
    private final RedisHealth health;
    private final Duration redisTimeout;
    private final Map<Integer, String> unanswered = new ConcurrentHashMap<>();
    private final AtomicInteger pendingClaims = new AtomicInteger();
    private volatile boolean running = true;
    private volatile long lastLoopNanos = System.nanoTime();

    public ClaimLoop(QueueProtocol protocol, ShardRange range, int batchSize, Duration poll, Duration lease, RateLimit rate,
                     int concurrency, ExecutorService handlers, Delivery delivery, InflightRegistry registry, Settler settler,
                     WorkerMetrics metrics, ServerClock clock, WakeBoard board, RedisHealth health, Duration redisTimeout) {
        this.protocol = protocol;
        this.range = range;
        this.batchSize = batchSize;
        this.poll = poll;
        this.lease = lease;
        this.rate = rate;
        this.slots = new Semaphore(concurrency);
        this.handlers = handlers;
        this.delivery = delivery;
        this.registry = registry;
        this.settler = settler;
        this.metrics = metrics;
        this.clock = clock;
        this.board = board;
        this.health = health;
        this.redisTimeout = redisTimeout;
    }

    public long lastLoopNanos() {
        return lastLoopNanos;
    }

    /** A marker says a task on {@code shard} is due at {@code dueAt} (server ms). */
    public void wakeFor(int shard, long dueAt) {
        if (range.from() <= shard && shard <= range.to()) {
            board.wake(shard, clock.nanoTimeAt(dueAt));
        }
    }

    public void stop() {
        running = false;
        board.nudge();
    }

    @Override
    public void run() {
        long pollNanos = poll.toNanos();
        while (running) {
            lastLoopNanos = System.nanoTime();
            try {
                int free = slots.availablePermits();
                if (free == 0) {
                    board.awaitNext(pollNanos);
                    continue;
                }
                int ready = Math.max(1, board.readyCount());
                int shard = board.takeReady();
                if (shard < 0) {
                    board.awaitNext(pollNanos);
                    continue;
                }
                // several shards due at once share the free slots, so a claim that hangs (a Redis
                // primary failing over) cannot hold all of them while the other shards wait
                claim(shard, Math.min(batchSize, (free + ready - 1) / ready));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("claim loop error (continuing)", e);
            }
        }
    }

    /**
     * Sends a claim without waiting for it: its slots are reserved until the answer, so claims of
     * several shards overlap and one slow or hanging claim holds up only its own shard.
     */
    private void claim(int shard, int ask) {
        long started = System.nanoTime();
        slots.acquireUninterruptibly(ask);
        String requestId = unanswered.getOrDefault(shard, UUID.randomUUID().toString());
        pendingClaims.incrementAndGet();
        CompletableFuture<ClaimBatch> call;
        try {
            call = protocol.claim(shard, ask, lease, rate, requestId).toCompletableFuture();
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.orTimeout(redisTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((batch, error) -> {
            try {
                answered(shard, ask, requestId, started, batch, error);
            } finally {
                synchronized (pendingClaims) {
                    pendingClaims.decrementAndGet();
                    pendingClaims.notifyAll();
                }
                board.nudge();
            }
        });
    }

    private void answered(int shard, int ask, String requestId, long started, ClaimBatch batch, Throwable error) {
        if (error != null) {
            slots.release(ask);
            // the claim may have run without us hearing the answer: ask again under the same id,
            // so its tasks come to us now rather than after their lease expires
            unanswered.put(shard, requestId);
            health.failed(error);
            // try this shard again soon; the other shards keep their own schedule
            board.wake(shard, started + Math.min(poll.toNanos(), 1_000_000_000L));
            return;
        }
        unanswered.remove(shard);
        health.ok();
        clock.observe(batch.serverNow());
        int n = batch.tasks().size();
        metrics.batch(n);
        slots.release(ask - n);
        for (ClaimedTask t : batch.tasks()) {
            Leased leased = new Leased(t);
            registry.add(leased);
            try {
                handlers.execute(() -> handle(leased));
            } catch (RejectedExecutionException stopped) {
                // shutting down: the task stays in flight and is re-delivered after its lease
                registry.remove(leased);
                slots.release();
            }
        }
        if (n == ask) {
            board.wake(shard, System.nanoTime());
            return;
        }
        long next = started + poll.toNanos();
        if (batch.hasNext()) {
            long untilDue = Math.max(0, batch.nextDueAt() - batch.serverNow()) * 1_000_000L;
            next = Math.min(next, started + untilDue);
        }
        board.wake(shard, next);
    }

    /** After {@link #stop()}: waits until every claim sent has been answered (or timed out). */
    public boolean awaitClaims(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (pendingClaims) {
            while (pendingClaims.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(pendingClaims, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    private void handle(Leased leased) {
        ClaimedTask claimed = leased.task();
        try {
            metrics.lag(clock.nowMillis() - claimed.dueAt());
            Outcome outcome;
            long t0 = System.nanoTime();
            try {
                Task task = TaskDecoder.decode(protocol.queue(), claimed);
                outcome = delivery.deliver(task);
            } catch (TaskDecoder.MalformedTask e) {
                outcome = new Outcome.Dead(e.getMessage());
            } catch (RuntimeException | Error e) {
                // whatever goes wrong, the task is settled: an escaped error would leave it leased forever
                outcome = Outcome.of(e);
            }
            metrics.handled(System.nanoTime() - t0);
            settler.settle(leased, outcome);
        } finally {
            slots.release();
            board.nudge();
        }
    }
}
