package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
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
import java.util.HashMap;
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
    private final Map<Integer, String> unanswered = new HashMap<>();
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
                int shard = board.takeReady();
                if (shard < 0) {
                    board.awaitNext(pollNanos);
                    continue;
                }
                claim(shard, Math.min(batchSize, free));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("claim loop error (continuing)", e);
            }
        }
    }

    private void claim(int shard, int ask) {
        long started = System.nanoTime();
        ClaimBatch batch;
        String requestId = unanswered.getOrDefault(shard, UUID.randomUUID().toString());
        try {
            batch = DelayQueueClient.awaitStage(protocol.claim(shard, ask, lease, rate, requestId), redisTimeout);
            unanswered.remove(shard);
            health.ok();
        } catch (RuntimeException e) {
            // the claim may have run without us hearing the answer: ask again under the same id,
            // so its tasks come to us now rather than after their lease expires
            unanswered.put(shard, requestId);
            health.failed(e);
            // try this shard again soon; the other shards keep their own schedule
            board.wake(shard, started + Math.min(poll.toNanos(), 1_000_000_000L));
            return;
        }
        clock.observe(batch.serverNow());
        int n = batch.tasks().size();
        metrics.batch(n);
        if (n > 0) {
            slots.acquireUninterruptibly(n);
            for (ClaimedTask t : batch.tasks()) {
                Leased leased = new Leased(t);
                registry.add(leased);
                handlers.execute(() -> handle(leased));
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
