package io.delayq.reshard;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.layout.LayoutChangedException;
import io.delayq.queue.QueueProtocol;
import io.delayq.task.CancelResult;
import io.delayq.task.EnqueueResult;
import io.delayq.task.RescheduleResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Steady produce, claim (with some retries), cancel and reschedule load on one queue, and the ledger that
 * judges it: every task added and not cancelled is acked (0 lost), no claim before the task's due time on the
 * server clock (0 early), a second claim of an id only with attempt > 1, no claim after a cancel succeeded.
 * The claimers serve every shard of the current layout, re-read from the meta hash as a worker over the
 * whole queue does.
 */
public final class LoadHarness implements AutoCloseable {
    private final DelayQueueClient producer;
    private final QueueProtocol claimer;
    private final String prefix;
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    public final AtomicLong seq = new AtomicLong();
    public final Map<String, Long> notBefore = new ConcurrentHashMap<>();
    public final Set<String> added = ConcurrentHashMap.newKeySet();
    public final Set<String> acked = ConcurrentHashMap.newKeySet();
    public final Set<String> cancelled = ConcurrentHashMap.newKeySet();
    /** Ids whose reschedule is on its way: the claimer may see the new due time before the rescheduler has recorded it. */
    private final Set<String> rescheduling = ConcurrentHashMap.newKeySet();
    public final Map<String, Integer> claims = new ConcurrentHashMap<>();
    public final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
    public final AtomicLong cancels = new AtomicLong();
    public final AtomicLong reschedules = new AtomicLong();
    public final AtomicLong retries = new AtomicLong();
    public final AtomicLong layoutErrors = new AtomicLong();

    /**
     * Riding out a Redis restart: the claimer goes on after a failed call, and an ack that Lettuce re-sent after the
     * reconnect (the first one ran, its reply was lost, so the second finds no lease) counts when the task is gone.
     */
    private volatile boolean outages;

    public LoadHarness(DelayQueueClient producer, DelayQueueClient claimerClient, String prefix) {
        this.producer = producer;
        this.claimer = claimerClient.protocol();
        this.prefix = prefix;
    }

    /** Only the claimer (for a preloaded backlog), riding out Redis outages: see {@link #outages}. */
    public void startClaimerThroughOutages() {
        outages = true;
        producing.set(false);
        spawn("claimer", this::claimLoop);
    }

    public final AtomicLong outageErrors = new AtomicLong();

    /** Tasks due {@code minMs..maxMs} from now, written before the load starts (the waiting backlog a migration moves). */
    public void preload(int count, int minMs, int maxMs) {
        List<TaskSpec> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(TaskSpec.of(prefix + seq.incrementAndGet()).after(Duration.ofMillis(ThreadLocalRandom.current().nextInt(minMs, maxMs))));
            if (batch.size() == 500 || i == count - 1) {
                record(producer.enqueueAll(batch));
                batch.clear();
            }
        }
    }

    public void start() {
        spawn("producer", () -> {
            while (producing.get()) {
                List<TaskSpec> batch = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    batch.add(TaskSpec.of(prefix + seq.incrementAndGet()).after(Duration.ofMillis(ThreadLocalRandom.current().nextInt(0, 1500))));
                }
                record(producer.enqueueAll(batch));
                pause(5);
            }
        });
        spawn("canceller", () -> {
            while (producing.get()) {
                String id = prefix + ThreadLocalRandom.current().nextLong(1, seq.get() + 1);
                try {
                    if (producer.cancel(id) == CancelResult.CANCELLED) {
                        cancelled.add(id);
                        cancels.incrementAndGet();
                    }
                } catch (LayoutChangedException e) {
                    layoutErrors.incrementAndGet();
                }
                pause(3);
            }
        });
        spawn("rescheduler", () -> {
            while (producing.get()) {
                String id = prefix + ThreadLocalRandom.current().nextLong(1, seq.get() + 1);
                rescheduling.add(id);
                try {
                    RescheduleResult r = producer.reschedule(id, Duration.ofMillis(ThreadLocalRandom.current().nextInt(0, 2000)));
                    if (r.status() == RescheduleResult.Status.RESCHEDULED) {
                        notBefore.put(id, r.dueAt());
                        reschedules.incrementAndGet();
                    }
                } catch (LayoutChangedException e) {
                    layoutErrors.incrementAndGet();
                } finally {
                    rescheduling.remove(id);
                }
                pause(3);
            }
        });
        spawn("claimer", this::claimLoop);
    }

    private void claimLoop() {
        while (running.get()) {
            try {
                claimRound();
            } catch (RuntimeException e) {
                if (!outages) {
                    throw e;
                }
                outageErrors.incrementAndGet();
                pause(50);
            }
        }
    }

    private long lastRefresh;

    private void claimRound() {
        {
            if (System.nanoTime() - lastRefresh > 100_000_000L) {
                io.delayq.redis.Replies.await(claimer.refreshLayout(), Duration.ofSeconds(5));
                lastRefresh = System.nanoTime();
            }
            int got = 0;
            for (int shard = 0; shard < claimer.shards(); shard++) {
                ClaimBatch b = io.delayq.redis.Replies.await(claimer.claim(shard, 100, Duration.ofSeconds(60), RateLimit.NONE), Duration.ofSeconds(5));
                List<ClaimedTask> done = new ArrayList<>();
                for (ClaimedTask t : b.tasks()) {
                    got++;
                    judge(t, b.serverNow());
                    if (t.attempt() == 1 && ThreadLocalRandom.current().nextInt(20) == 0) {
                        retries.incrementAndGet();
                        io.delayq.redis.Replies.await(claimer.retry(t, Duration.ofMillis(300), "try again", 5, false, DeadLetterPolicy.DEFAULT),
                                Duration.ofSeconds(5));
                    } else {
                        done.add(t);
                    }
                }
                if (!done.isEmpty()) {
                    List<Boolean> ok = io.delayq.redis.Replies.await(claimer.ack(shard, done), Duration.ofSeconds(5));
                    for (int i = 0; i < done.size(); i++) {
                        if (ok.get(i) || outages && producer.inspect(done.get(i).id()).state() == io.delayq.task.TaskInfo.State.UNKNOWN) {
                            acked.add(done.get(i).id());
                        }
                    }
                }
            }
            if (got == 0) {
                pause(5);
            }
        }
    }

    private void judge(ClaimedTask t, long serverNow) {
        int n = claims.merge(t.id(), 1, Integer::sum);
        if (n > 1 && t.attempt() == 1) {
            violations.add("duplicate with attempt 1: " + t.id());
        }
        // protocol 3 hands out a due window whole: a task up to a window before its due time, which the worker holds
        // until then (it fires at its due time); anything earlier is a violation
        long handedAhead = claimer.buckets() != null ? io.delayq.bucket.BucketLayout.WINDOW_MS : 0;
        if (serverNow + handedAhead < t.dueAt()) {
            violations.add("claimed " + (t.dueAt() - serverNow) + " ms before its score: " + t.id());
        }
        long firedAt = Math.max(serverNow, t.dueAt());
        // the mark first: the rescheduler sets it before its call and clears it only after recording the new due time,
        // so a reschedule answered after this claim's was read either still marked here or already recorded
        boolean rescheduled = rescheduling.contains(t.id());
        Long due = notBefore.get(t.id());
        if (due != null && firedAt < due && !rescheduled) {
            violations.add("early by " + (due - firedAt) + " ms: " + t.id() + " (shard " + t.shard() + ", attempt " + t.attempt()
                    + ", due " + t.dueAt() + ", claimed at " + serverNow + ", in flight as " + t.flight() + ")");
        }
        if (cancelled.contains(t.id())) {
            violations.add("claimed after it was cancelled: " + t.id());
        }
    }

    private void record(List<EnqueueResult> results) {
        for (EnqueueResult r : results) {
            if (r.status() == EnqueueResult.Status.ADDED) {
                notBefore.putIfAbsent(r.id(), r.dueAt());
                added.add(r.id());
            } else {
                violations.add("enqueue of a new id answered " + r.status() + ": " + r.id());
            }
        }
    }

    public void stopProducing() {
        producing.set(false);
    }

    /** Ids added, not cancelled and not (yet) acked. */
    public Set<String> missing() {
        Set<String> m = ConcurrentHashMap.newKeySet();
        for (String id : added) {
            if (!acked.contains(id) && !cancelled.contains(id)) {
                m.add(id);
            }
        }
        return m;
    }

    /**
     * Through outages: a task claimed and then gone from Redis was acked (an ack whose reply a restart cut off, or
     * whose re-sent call timed out); counted as acked. A task lost by Redis is never claimed after the restart, so it
     * stays missing.
     */
    public void countGoneAsAcked() {
        for (String id : missing()) {
            if (claims.containsKey(id) && producer.inspect(id).state() == io.delayq.task.TaskInfo.State.UNKNOWN) {
                acked.add(id);
            }
        }
    }

    public String summary() {
        return added.size() + " added, " + acked.size() + " acked, " + cancels + " cancelled, " + reschedules + " rescheduled, "
                + retries + " retried, " + layoutErrors + " layout give-ups, violations " + violations.size()
                + (violations.isEmpty() ? "" : " e.g. " + violations.subList(0, Math.min(5, violations.size())));
    }

    private void spawn(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (RuntimeException e) {
                violations.add(name + " failed: " + e);
            }
        }, "load-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        producing.set(false);
        running.set(false);
        for (Thread t : threads) {
            t.join(10_000);
        }
    }
}
