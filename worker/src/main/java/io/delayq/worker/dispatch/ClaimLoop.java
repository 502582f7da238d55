package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.queue.QueueProtocol;
import io.delayq.shard.ShardRange;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.ops.RedisHealth;
import io.delayq.worker.ops.ShardFaults;
import io.delayq.worker.settle.Settler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
    /**
     * How long a claim keeps its slots reserved without an answer. A claim answers in milliseconds;
     * one sent to a Cluster primary that just died waits for the Redis time-out (5 s), and while it
     * held its slots every other shard's due tasks waited as long (the chaos suite's failover: all
     * shards ~5 s late). After this the slots go back to the shards that answer; a late answer
     * takes slots for its tasks then, running above the concurrency for a moment.
     */
    static final long CLAIM_HOLD_MILLIS = 250;

    private final QueueProtocol protocol;
    private final ShardRange range;
    private final int batchSize;
    private final Duration poll;
    private final Duration lease;
    private final RateLimit rate;
    private final Slots slots;
    private final ExecutorService handlers;
    private final TaskRun run;
    private final InflightRegistry registry;
    private final Settler settler;
    private final WorkerMetrics metrics;
    private final ServerClock clock;
    private final WakeBoard board;
    private final RedisHealth health;
    private final ShardFaults faults;
    private final MalformedTasks malformed;
    private final Duration redisTimeout;
    private final Map<Integer, String> unanswered = new ConcurrentHashMap<>();
    private final AtomicInteger pendingClaims = new AtomicInteger();
    private final int refillAt;
    private volatile boolean awaitingCapacity;
    private volatile boolean running = true;
    private volatile long lastLoopNanos = System.nanoTime();

    public ClaimLoop(QueueProtocol protocol, ShardRange range, int batchSize, Duration poll, Duration lease, RateLimit rate,
                     int concurrency, ExecutorService handlers, TaskRun run, InflightRegistry registry, Settler settler,
                     WorkerMetrics metrics, ServerClock clock, WakeBoard board, RedisHealth health, ShardFaults faults,
                     Duration redisTimeout) {
        this.protocol = protocol;
        this.range = range;
        this.batchSize = batchSize;
        this.poll = poll;
        this.lease = lease;
        this.rate = rate;
        this.slots = new Slots(concurrency);
        this.refillAt = refillThreshold(concurrency, batchSize);
        this.handlers = handlers;
        this.run = run;
        this.registry = registry;
        this.settler = settler;
        this.metrics = metrics;
        this.clock = clock;
        this.board = board;
        this.health = health;
        this.faults = faults;
        this.malformed = new MalformedTasks(protocol.queue(), metrics);
        this.redisTimeout = redisTimeout;
    }

    /**
     * A saturated worker claims again once a quarter of its capacity (at most a quarter batch) is
     * free, not at every freed slot: claims of one or two tasks would cost a script call each and
     * wake this loop for every finished task. An idle worker has free slots anyway, so this never
     * delays a task that is due.
     */
    static int refillThreshold(int concurrency, int batchSize) {
        return Math.max(1, Math.min(concurrency, batchSize) / 4);
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
                if (free < refillAt) {
                    awaitingCapacity = true;
                    // re-read after raising the flag: a release in between has seen it or is seen here
                    if (slots.availablePermits() < refillAt) {
                        board.awaitSignal(pollNanos);
                    }
                    continue;
                }
                awaitingCapacity = false;
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
     * Sends a claim without waiting for it: its slots are reserved until the answer, at most
     * {@link #CLAIM_HOLD_MILLIS}, so claims of several shards overlap and one slow or hanging claim
     * holds up only its own shard.
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
        AtomicBoolean reserved = new AtomicBoolean(true);
        CompletableFuture<Void> hold = new CompletableFuture<Void>().completeOnTimeout(null, CLAIM_HOLD_MILLIS, TimeUnit.MILLISECONDS);
        hold.thenRun(() -> {
            if (reserved.compareAndSet(true, false)) {
                release(ask);
            }
        });
        call.orTimeout(redisTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((batch, error) -> {
            hold.cancel(false);
            try {
                // answered() re-arms the shard's wake-up (and a release wakes a loop waiting for capacity)
                answered(shard, ask, reserved.getAndSet(false) ? ask : 0, requestId, started, batch, error);
            } finally {
                synchronized (pendingClaims) {
                    pendingClaims.decrementAndGet();
                    pendingClaims.notifyAll();
                }
            }
        });
    }

    /** @param held the slots still reserved for this claim: {@code ask}, or 0 once its hold ran out */
    private void answered(int shard, int ask, int held, String requestId, long started, ClaimBatch batch, Throwable error) {
        if (error != null && ShardFaults.isDataFault(error)) {
            // Redis answered, about this shard's data: the other shards go on, this one is retried at the poll
            // interval (a claim reads before it writes, so the failed one moved nothing and needs no replay)
            release(held);
            unanswered.remove(shard);
            health.ok();
            faults.failed(shard, error);
            board.wake(shard, started + poll.toNanos());
            return;
        }
        if (error != null) {
            release(held);
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
        faults.ok(shard);
        clock.observe(batch.serverNow());
        for (RefusedTask refused : batch.refused()) {
            malformed.refusedByClaim(shard, refused.shownId(), refused.reason());
        }
        int n = batch.tasks().size();
        metrics.batch(n);
        if (n <= held) {
            release(held - n);
        } else {
            slots.take(n - held);
        }
        for (ClaimedTask t : batch.tasks()) {
            Leased leased = new Leased(t);
            registry.add(leased);
            try {
                handlers.execute(() -> handle(leased));
            } catch (RejectedExecutionException stopped) {
                // shutting down: the task stays in flight and is re-delivered after its lease
                registry.remove(leased);
                release(1);
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
            leased.startRun(Thread.currentThread());
            try {
                outcome = run.run(claimed);
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
        } finally {
            release(1);
        }
    }

    /** Handler slots; {@link #take} may leave fewer than none when a late claim answer brings tasks. */
    private static final class Slots extends Semaphore {
        Slots(int permits) {
            super(permits);
        }

        void take(int n) {
            reducePermits(n);
        }
    }

    private void release(int n) {
        if (n <= 0) {
            return;
        }
        slots.release(n);
        if (awaitingCapacity && slots.availablePermits() >= refillAt) {
            awaitingCapacity = false;
            board.nudge();
        }
    }
}
