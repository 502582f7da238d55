package io.delayq.worker.dispatch;

import io.delayq.claim.ClaimAhead;
import io.delayq.claim.ClaimBatch;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.GroupWeights;
import io.delayq.claim.RateLimit;
import io.delayq.claim.RefusedTask;
import io.delayq.queue.QueueProtocol;
import io.delayq.shard.ShardRange;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import io.delayq.worker.ops.RedisHealth;
import io.delayq.worker.ops.ShardFaults;
import io.delayq.worker.permit.GroupPermits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;

/**
 * The heart of the worker. For the shard that is due soonest: claim as many tasks as there are free
 * handler slots plus a small buffer ({@link Prefetch}); when the claim came back full, claim again at
 * once, otherwise sleep until the shard's next due time, unless a marker, the idle sweep or freed
 * capacity wakes it earlier. Running the tasks is {@link TaskRunner}'s job.
 *
 * <p>With a claim-ahead window ({@code DELAYQ_CLAIM_AHEAD}) a shard is claimed {@link #LEAD_NANOS} before its next
 * due time and the claim also takes what is due within the window; those tasks wait in {@link HeldUntilDue}, not in
 * a handler slot, until the server clock reads their due time.
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
    /** The buffer beyond the handler slots is at most this many batches (and about 25 ms of work, see {@link Prefetch}). */
    static final int PREFETCH_BATCHES = 4;
    /**
     * With a claim-ahead window, how long before a shard's next due time its claim is sent: about a claim's round trip
     * on a busy machine, so that the task is held when its due time comes instead of waiting for the answer.
     */
    static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /**
     * What the claim loop is built from.
     *
     * @param poll         the longest a shard with a known next due time sleeps after an error or a fault
     * @param handlers     where claimed tasks run, at most {@code concurrency} at once
     * @param redisTimeout how long an unanswered claim is waited for
     * @param claimAhead   claims also take tasks due within this window (0: none); at most a batch of them are held
     * @param groupWeights the groups' weights in each claim's round robin
     * @param permits      the permits of groups capped at N running, or null when no group is capped
     */
    public record Params(QueueProtocol protocol, ShardRange range, int batchSize, Duration poll, Duration lease, RateLimit rate,
                         int concurrency, HandlerPool handlers, TaskRunner runner, InflightRegistry registry,
                         WorkerMetrics metrics, ServerClock clock, WakeBoard board, RedisHealth health, ShardFaults faults,
                         Duration redisTimeout, Duration claimAhead, GroupWeights groupWeights, GroupPermits permits) {
    }

    private final QueueProtocol protocol;
    private final ShardRange range;
    private final int batchSize;
    private final int concurrency;
    private final Duration poll;
    private final Duration lease;
    private final RateLimit rate;
    private final GroupWeights groupWeights;
    private final GroupPermits permits;
    private final GroupCaps caps;
    private final Slots slots;
    private final Prefetch prefetch;
    private final HandlerPool handlers;
    private final TaskRunner runner;
    private final InflightRegistry registry;
    private final WorkerMetrics metrics;
    private final ServerClock clock;
    private final WakeBoard board;
    private final RedisHealth health;
    private final ShardFaults faults;
    private final MalformedTasks malformed;
    private final Duration redisTimeout;
    /** ClaimAhead.NONE when off, or on a rate-limited worker (a token must not be spent before its task is due). */
    private final ClaimAhead ahead;
    private final HeldUntilDue held;
    /** Per shard: whether its last claim answer looked ahead (false where groups wait): only then is it claimed early. */
    private final boolean[] looksAhead;
    private final Map<Integer, String> unanswered = new ConcurrentHashMap<>();
    /** Shards with a claim on the wire (sent, not yet answered or timed out). */
    private final Set<Integer> claiming = ConcurrentHashMap.newKeySet();
    private final AtomicInteger pendingClaims = new AtomicInteger();
    /** Permits that must be available before a saturated loop claims again (refill threshold + withheld buffer). */
    private volatile int wakeAtPermits;
    private volatile boolean awaitingCapacity;
    private volatile boolean running = true;
    private volatile long lastLoopNanos = System.nanoTime();

    public ClaimLoop(Params p) {
        this.protocol = p.protocol();
        this.range = p.range();
        this.batchSize = p.batchSize();
        this.concurrency = p.concurrency();
        this.poll = p.poll();
        this.lease = p.lease();
        this.rate = p.rate();
        this.groupWeights = p.groupWeights();
        this.permits = p.permits();
        this.caps = p.permits() == null ? GroupCaps.NONE : p.permits().caps();
        this.prefetch = new Prefetch(PREFETCH_BATCHES * p.batchSize(), p.lease());
        this.slots = new Slots(p.concurrency() + prefetch.max());
        this.wakeAtPermits = refillThreshold(p.concurrency(), p.batchSize()) + prefetch.max();
        this.handlers = p.handlers();
        this.runner = p.runner();
        this.registry = p.registry();
        this.metrics = p.metrics();
        this.clock = p.clock();
        this.board = p.board();
        this.health = p.health();
        this.faults = p.faults();
        this.malformed = p.runner().malformed();
        this.redisTimeout = p.redisTimeout();
        this.ahead = p.claimAhead().isZero() || p.rate().enabled() ? ClaimAhead.NONE : new ClaimAhead(p.claimAhead(), p.batchSize());
        this.held = new HeldUntilDue(p.batchSize(), p.clock(), this::fire);
        this.looksAhead = new boolean[p.range().size()];
        java.util.Arrays.fill(looksAhead, true);
    }

    /**
     * A saturated worker claims again once a quarter of its capacity (at most half a batch) is free, not at
     * every freed slot: claims of one or two tasks would cost a script call each and wake this loop for every
     * finished task. An idle worker has free slots anyway, so this never delays a task that is due.
     */
    static int refillThreshold(int capacity, int batchSize) {
        return Math.max(1, Math.min(capacity / 4, batchSize / 2));
    }

    /**
     * How many tasks to ask one ready shard for. Several shards due at once share the free slots, so a claim
     * that hangs (a Redis primary failing over) cannot hold all of them while the other shards wait — but a
     * share never shrinks below a quarter of the capacity (or the batch): with 16 shards and 16 slots, asking
     * each for one task cost a script call per task.
     */
    static int askFor(int free, int ready, int capacity, int batchSize) {
        int share = (free + Math.max(1, ready) - 1) / Math.max(1, ready);
        int floor = Math.min(batchSize, Math.max(1, capacity / 4));
        return Math.max(0, Math.min(Math.min(batchSize, free), Math.max(share, floor)));
    }

    public long lastLoopNanos() {
        return lastLoopNanos;
    }

    /** A marker says a task on {@code shard} is due at {@code dueAt} (server ms). */
    public void wakeFor(int shard, long dueAt) {
        if (range.from() <= shard && shard <= range.to()) {
            board.wake(shard, clock.nanoTimeAt(shard, dueAt) - lead(shard));
        }
    }

    /** How early to claim {@code shard} before a due time: {@link #LEAD_NANOS} when its claim would take the task ahead. */
    private long lead(int shard) {
        return ahead.enabled() && looksAhead[shard - range.from()] && held.room() > 0 ? LEAD_NANOS : 0;
    }

    public void stop() {
        running = false;
        board.nudge();
    }

    /**
     * After {@link #stop()} and {@link #awaitClaims}: waits until the tasks claimed ahead have come due and gone to the
     * handlers (they are at most a claim-ahead window away), so that a stopping worker runs them rather than leaving
     * them in flight until their lease ends.
     */
    public boolean awaitHeld(Duration timeout) {
        return held.awaitEmpty(timeout);
    }

    /** Tasks claimed ahead and not yet due (held outside the handler slots). */
    public int heldCount() {
        return held.size();
    }

    /** Drops the held tasks (a hard close): they stay in flight in Redis and come back after their lease. */
    public void close() {
        stop();
        held.close();
    }

    @Override
    public void run() {
        long pollNanos = poll.toNanos();
        while (running) {
            long now = System.nanoTime();
            lastLoopNanos = now;
            try {
                int buffer = prefetch.allowance(now);
                int withheld = prefetch.max() - buffer;
                int capacity = concurrency + buffer;
                int refillAt = refillThreshold(capacity, batchSize);
                wakeAtPermits = refillAt + withheld;
                int free = slots.availablePermits() - withheld;
                if (free < refillAt) {
                    awaitingCapacity = true;
                    // re-read after raising the flag: a release in between has seen it or is seen here
                    if (slots.availablePermits() - withheld < refillAt) {
                        // capped: the buffer grows only when the loop looks again
                        board.awaitSignal(Math.min(pollNanos, Prefetch.WINDOW_NANOS));
                    }
                    continue;
                }
                awaitingCapacity = false;
                int ready = board.readyCount();
                int shard = board.takeReady();
                if (shard < 0) {
                    board.awaitNext(pollNanos);
                    continue;
                }
                if (claiming.contains(shard)) {
                    // one claim per shard at a time: a second one sent while the first is unanswered would reuse its
                    // request id after a time-out and be answered the same tasks; the first one's answer re-arms it
                    continue;
                }
                claim(shard, askFor(free, ready, capacity, batchSize));
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
        claiming.add(shard);
        pendingClaims.incrementAndGet();
        CompletableFuture<ClaimBatch> call;
        GroupPermits.Hand hand = permits == null ? null : permits.take(shard);
        try {
            int room = held.room();
            ClaimAhead asked = ahead.enabled() && room > 0 ? ahead.withRoom(room) : ClaimAhead.NONE;
            call = protocol.claim(shard, ask, lease, rate, requestId, asked, groupWeights, caps,
                    hand == null ? Map.of() : hand.counts()).toCompletableFuture();
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
            long answeredAt = System.nanoTime();
            hold.cancel(false);
            // before answered(), which may re-arm the shard: the loop must find it claimable again
            claiming.remove(shard);
            try {
                // answered() re-arms the shard's wake-up (and a release wakes a loop waiting for capacity)
                answered(shard, ask, reserved.getAndSet(false) ? ask : 0, requestId, started, answeredAt, batch, error, hand);
            } finally {
                synchronized (pendingClaims) {
                    pendingClaims.decrementAndGet();
                    pendingClaims.notifyAll();
                }
            }
        });
    }

    /**
     * @param held       the slots still reserved for this claim: {@code ask}, or 0 once its hold ran out
     * @param answeredAt when the answer came (System.nanoTime), as {@code started} when the claim was sent
     */
    private void answered(int shard, int ask, int held, String requestId, long started, long answeredAt, ClaimBatch batch, Throwable error,
                          GroupPermits.Hand hand) {
        if (error != null && hand != null) {
            // a data fault moved nothing; a lost answer is asked again under the same id, holding the same permits
            permits.putBack(shard, hand);
        }
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
        clock.observe(shard, batch.serverNow(), started, answeredAt);
        for (RefusedTask refused : batch.refused()) {
            malformed.refusedByClaim(shard, refused.shownId(), refused.reason());
        }
        int all = batch.tasks().size();
        // the tasks claimed ahead take no slot until they come due (HeldUntilDue)
        int n = batch.dueCount();
        metrics.batch(all);
        if (n <= held) {
            release(held - n);
        } else {
            slots.take(n - held);
        }
        List<Leased> leased = registry.add(batch.tasks());
        if (hand != null) {
            // before any task runs: a task of a capped group runs under one of the permits its claim held
            permits.claimed(shard, hand, leased);
            permits.wanted(shard, batch.wanted());
        }
        if (n < all) {
            List<Leased> now = new ArrayList<>(n);
            List<Leased> later = new ArrayList<>(all - n);
            for (Leased l : leased) {
                (l.task().dueAt() <= batch.serverNow() ? now : later).add(l);
            }
            this.held.hold(shard, later);
            leased = now;
        }
        dispatch(leased);
        if (n == ask) {
            // only the due ones count: a full batch of them means more may be due
            board.wake(shard, System.nanoTime());
            return;
        }
        looksAhead[shard - range.from()] = batch.lookedAhead();
        if (batch.hasNext()) {
            // not before the shard's clock surely reads the next due time (a claim sent early would find nothing), unless
            // the claim takes it ahead: then a little before, so that it is held when it comes due; never early after a
            // claim that took nothing (no early claim repeats itself)
            long lead = all == 0 && batch.nextDueAt() > batch.serverNow() ? 0 : lead(shard);
            board.wake(shard, clock.nanoTimeAt(shard, batch.nextDueAt()) - lead);
        }
        // nothing waits: the shard sleeps until a marker (every delayq producer writes one for a task due sooner
        // than the shard's head) or the idle sweep (a hand-written ZADD without one) wakes it; claiming every
        // idle shard each poll interval would cost an idle worker ~9 commands per shard per second
    }

    /** Held tasks that came due: each takes its handler slot now (below zero if need be, like a late claim answer). */
    private void fire(List<Leased> due) {
        slots.take(due.size());
        dispatch(due);
    }

    /** Hands a claim's tasks to the handler threads, with one hand-over for the batch. */
    private void dispatch(List<Leased> leased) {
        if (leased.isEmpty()) {
            return;
        }
        List<Runnable> runs = new ArrayList<>(leased.size());
        for (Leased l : leased) {
            runs.add(() -> run(l));
        }
        try {
            handlers.executeAll(runs);
        } catch (RejectedExecutionException stopped) {
            // shutting down: the tasks stay in flight and are re-delivered after their lease
            leased.forEach(registry::remove);
            release(leased.size());
        }
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

    /** On a handler thread; the task's slot is free once its outcome went to the settler (for a webhook: its request completed). */
    private void run(Leased leased) {
        CompletableFuture<Void> ran = null;
        try {
            if (startedTooLate(leased)) {
                // a task that waited for a thread past half its lease (a Redis freeze stopped the renewals) may
                // already be handed out again: running it now could overlap the re-delivery, so the reclaimer
                // returns it to due and it runs with a new attempt
                registry.remove(leased);
                metrics.leaseLost(1);
                LOG.debug("task {} of shard {} not started: half its lease passed before a handler was free", leased.id(), leased.task().shard());
                return;
            }
            ran = runner.run(leased);
        } finally {
            if (ran == null) {
                release(1);
            }
        }
        ran.whenComplete((v, e) -> {
            if (permits != null && leased.permit() != null) {
                // the handler no longer runs: its group's permit goes back now, not after the ack's linger
                permits.back(List.of(leased));
            }
            prefetch.finished();
            release(1);
        });
    }

    /** Less than half the lease left, by the local clock since the claim or renewal and by the server clock's token. */
    private boolean startedTooLate(Leased leased) {
        long leaseMillis = lease.toMillis();
        long held = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - leased.lastRenewedNanos());
        long left = Math.min(leaseMillis - held, leased.task().token() - clock.nowMillis());
        return leased.lost() || left < leaseMillis / 2;
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
        if (awaitingCapacity && slots.availablePermits() >= wakeAtPermits) {
            awaitingCapacity = false;
            board.nudge();
        }
    }
}
