package io.delayq.worker.settle;

import io.delayq.claim.ClaimedTask;
import io.delayq.completion.BoundedResult;
import io.delayq.completion.Finished;
import io.delayq.completion.ResultRetention;
import io.delayq.deadletter.DeadLetterPolicy;
import io.delayq.lease.RetryResult;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.ShardChunk;
import io.delayq.task.TaskRecord;
import io.delayq.worker.config.RetryPolicy;
import io.delayq.worker.controls.TaskRetry;
import io.delayq.worker.delivery.Outcome;
import io.delayq.worker.lease.InflightRegistry;
import io.delayq.worker.lease.Leased;
import io.delayq.worker.metrics.WorkerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns outcomes into Redis state. Acks are group-committed: one thread sends whatever finished
 * while the previous acks were on the wire, one script call per shard, so a busy worker acks
 * hundreds of tasks per round trip. A round that would give a shard's call fewer than
 * {@value #ACKS_PER_CALL} acks first lingers for company, up to 200 ms, while the worker still holds
 * claimed tasks that have not finished (nothing else can join it once every claimed task has):
 * an ack call costs Redis its socket read, reply and fixed script work whatever it carries, so at a
 * steady 1,000 tasks/s over 16 shards that turns ~3 acks per call into ~13, most of what Redis spends
 * per task beyond the enqueue and the claim. The handler has already run and its slot is free, so lag
 * and throughput are unaffected, and the lease is far longer than the linger.
 * Each failed attempt, once Redis recorded it, is one line of the {@link FailureLog}.
 */
public final class Settler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Settler.class);
    private static final Leased STOP = new Leased(new ClaimedTask(-1, "", 0, 0, 0, null));
    private static final int MAX_ACK_ROUND = 5000;
    /** The longest an ack lingers (at most a tenth of the lease, so lingering does not eat into it). */
    static final Duration MAX_ACK_LINGER = Duration.ofMillis(200);
    /**
     * Acks per shard that make a call worth sending without lingering: its fixed cost (socket, parse, reply,
     * the script's set-up) is then a small share of each ack's, and a busy worker is not slowed.
     */
    static final int ACKS_PER_CALL = 16;
    /**
     * How long a round waits for its answers before the next round goes out. An ack sent to a Cluster
     * primary that just died waits for the Redis time-out (5 s); the acks of the other shards must not
     * wait behind it, since a settled task is no longer heartbeated and its lease runs out meanwhile.
     * Calls still on the wire complete (and count as finished) on their own.
     */
    static final long ROUND_WAIT_MILLIS = 250;

    private final QueueProtocol protocol;
    private final InflightRegistry registry;
    private final WorkerMetrics metrics;
    private final RetryPolicy retry;
    private final DeadLetterPolicy deadLetters;
    private final FailureLog failures;
    private final LinkedBlockingQueue<Leased> toAck = new LinkedBlockingQueue<>();
    private final AtomicInteger outstanding = new AtomicInteger();
    private final Thread acker;
    private final long lingerNanos;
    private final ResultRetention results;
    private final String workerId;

    public Settler(QueueProtocol protocol, InflightRegistry registry, WorkerMetrics metrics, RetryPolicy retry, DeadLetterPolicy deadLetters,
                   Duration lease, FailureLog failures) {
        this(protocol, registry, metrics, retry, deadLetters, lease, failures, ResultRetention.OFF, "");
    }

    /** @param results whether the acks keep completion records, naming {@code workerId} as the worker */
    public Settler(QueueProtocol protocol, InflightRegistry registry, WorkerMetrics metrics, RetryPolicy retry, DeadLetterPolicy deadLetters,
                   Duration lease, FailureLog failures, ResultRetention results, String workerId) {
        this.results = results;
        this.workerId = workerId;
        this.failures = failures;
        this.lingerNanos = ackLinger(lease).toNanos();
        this.protocol = protocol;
        this.registry = registry;
        this.metrics = metrics;
        this.retry = retry;
        this.deadLetters = deadLetters;
        this.acker = new Thread(this::ackLoop, "delayq-acker");
        this.acker.setDaemon(true);
        this.acker.start();
    }

    /** How long a lone ack waits for company: {@link #MAX_ACK_LINGER}, or a tenth of the lease when that is shorter. */
    static Duration ackLinger(Duration lease) {
        Duration tenth = lease.dividedBy(10);
        return tenth.compareTo(MAX_ACK_LINGER) < 0 ? tenth : MAX_ACK_LINGER;
    }

    /** False when the task was already settled (an abandoned handler's late result): nothing is done. */
    public boolean settle(Leased leased, Outcome outcome) {
        outstanding.incrementAndGet();
        return counted(leased.settle(action(leased, outcome)));
    }

    /** The handler overran its deadline: interrupt it and settle with {@code outcome} in its place. */
    public boolean abandon(Leased leased, Outcome outcome) {
        outstanding.incrementAndGet();
        return counted(leased.abandon(action(leased, outcome)));
    }

    private boolean counted(boolean settling) {
        if (!settling) {
            synchronized (outstanding) {
                outstanding.decrementAndGet();
                outstanding.notifyAll();
            }
        }
        return settling;
    }

    private Runnable action(Leased leased, Outcome outcome) {
        return () -> {
            if (outcome instanceof Outcome.Done done) {
                if (results.on()) {
                    leased.finished(new Finished(Math.max(0, leased.handlerMillis()), BoundedResult.of(done.result())));
                }
                toAck.add(leased);
            } else if (outcome instanceof Outcome.Retry r) {
                RetryPolicy policy = policyOf(leased.task());
                fail(leased, r.error(), r.after() != null ? r.after() : policy.backoff(leased.task().attempt()), null, policy.maxAttempts());
            } else if (outcome instanceof Outcome.Dead d) {
                fail(leased, d.error(), Duration.ZERO, "permanent failure", retry.maxAttempts());
            } else if (outcome instanceof Outcome.Expired x) {
                metrics.expired(x.discard());
                if (x.discard()) {
                    toAck.add(leased);
                } else {
                    fail(leased, x.reason(), Duration.ZERO, "not started before it expired", retry.maxAttempts());
                }
            }
        };
    }

    /**
     * The worker's policy with the task's own overrides (maxAttempts, backoff*). The record is read again
     * only here, on the failure path; one that cannot be read (the delivery already dead-letters those)
     * gets the worker's policy.
     */
    private RetryPolicy policyOf(ClaimedTask task) {
        String raw = task.rawRecord();
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '{') {
            return retry; // the compact form carries no options
        }
        try {
            return TaskRetry.of(retry, TaskRecord.decode(raw).options());
        } catch (RuntimeException malformed) {
            return retry;
        }
    }

    /** @param permanently why the task is dead-lettered at once, or null to retry it while it has attempts left */
    private void fail(Leased leased, String error, Duration backoff, String permanently, int maxAttempts) {
        ClaimedTask task = leased.task();
        protocol.retry(task, backoff, error, maxAttempts, permanently != null, deadLetters, leased.reportedProgress()).whenComplete((result, e) -> {
            if (e != null) {
                // the lease will expire and the task come back: nothing is lost, the attempt is counted
                LOG.warn("could not record the failure of task {} on shard {}: {}", task.id(), task.shard(), e.toString());
            } else if (result.status() == RetryResult.Status.RETRIED) {
                metrics.retried();
            } else if (result.status() == RetryResult.Status.DEAD) {
                metrics.dead();
            } else {
                metrics.leaseLost(1);
            }
            finished(leased);
            if (e == null) {
                failures.failed(protocol.queue(), task, maxAttempts, error, result, backoff, permanently);
            }
        });
    }

    private void finished(Leased leased) {
        finished(List.of(leased));
    }

    /** One lock and one wake-up of a waiting {@link #drain} per ack call, not per task. */
    private void finished(List<Leased> done) {
        registry.removeAll(done);
        synchronized (outstanding) {
            outstanding.addAndGet(-done.size());
            outstanding.notifyAll();
        }
    }

    private void ackLoop() {
        List<Leased> round = new ArrayList<>();
        while (true) {
            try {
                round.add(toAck.take());
                gather(round);
            } catch (InterruptedException e) {
                return;
            }
            boolean stop = round.remove(STOP);
            if (!round.isEmpty()) {
                // the last round before stopping waits for its answers: close() shuts Redis down next
                ack(round, stop ? TimeUnit.SECONDS.toMillis(30) : ROUND_WAIT_MILLIS);
            }
            round.clear();
            if (stop) {
                return;
            }
        }
    }

    /** Adds what is waiting and, while the round {@linkplain #wantsCompany wants company}, what finishes within the linger. */
    private void gather(List<Leased> round) throws InterruptedException {
        toAck.drainTo(round, MAX_ACK_ROUND - round.size());
        long deadline = System.nanoTime() + lingerNanos;
        Set<Integer> shards = new HashSet<>();
        int counted = 0;
        // close() queues STOP after the last ack, so the tail is where it shows (no scan of the round)
        while (round.get(round.size() - 1) != STOP && round.size() < MAX_ACK_ROUND) {
            for (; counted < round.size(); counted++) {
                shards.add(round.get(counted).task().shard());
            }
            // handed in first: finished() lowers the registry before it, so a finish between the reads makes the
            // round go early, never linger for nothing
            int handedIn = outstanding.get();
            if (!wantsCompany(round.size(), shards.size(), registry.size(), handedIn)) {
                return;
            }
            long left = deadline - System.nanoTime();
            Leased next = left > 0 ? toAck.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                return;
            }
            round.add(next);
            toAck.drainTo(round, MAX_ACK_ROUND - round.size());
        }
    }

    /**
     * Whether a round of {@code acks} over {@code shards} shards waits for more: while its calls would carry fewer than
     * {@link #ACKS_PER_CALL} each and some claimed task has not been handed to the settler yet ({@code claimed}: the
     * in-flight registry, which holds every claimed task until its ack is answered; {@code handedIn}: those of them
     * settled and not finished, this round's included).
     */
    static boolean wantsCompany(int acks, int shards, int claimed, int handedIn) {
        return acks < ACKS_PER_CALL * shards && claimed > handedIn;
    }

    private void ack(List<Leased> round, long waitMillis) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (ShardChunk<Leased> shardChunk : ShardChunk.of(round, l -> l.task().shard())) {
            int shard = shardChunk.shard();
            List<Leased> chunk = shardChunk.items();
            List<ClaimedTask> tasks = chunk.stream().map(Leased::task).toList();
            var ack = results.on()
                    ? protocol.ack(shard, tasks, reportedProgress(chunk), results, workerId, chunk.stream().map(Leased::finished).toList())
                    : protocol.ack(shard, tasks, reportedProgress(chunk));
            calls.add(ack.<Void>handle((acked, e) -> {
                if (e != null) {
                    LOG.warn("ack of {} task(s) on shard {} failed, they will be re-delivered after their lease: {}",
                            chunk.size(), shard, e.toString());
                } else {
                    int ok = 0;
                    for (Boolean b : acked) {
                        ok += b ? 1 : 0;
                    }
                    metrics.acked(ok);
                    metrics.leaseLost(acked.size() - ok);
                }
                finished(chunk);
                return null;
            }).toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException slowShard) {
            // one shard's primary is slow or failing over: the next round goes out, this one finishes on its own
        } catch (Exception e) {
            LOG.warn("acks still unanswered after 30 s: {}", e.toString());
        }
    }

    /** The ids of the tasks whose handlers reported progress (usually none: then no set is built). */
    private static Set<String> reportedProgress(List<Leased> chunk) {
        Set<String> ids = null;
        for (Leased l : chunk) {
            if (l.reportedProgress()) {
                if (ids == null) {
                    ids = new HashSet<>();
                }
                ids.add(l.id());
            }
        }
        return ids == null ? Set.of() : ids;
    }

    /** Waits until every settle handed in so far has reached Redis (or failed), at most {@code timeout}. */
    public boolean drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (outstanding) {
            while (outstanding.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(outstanding, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void close() {
        toAck.add(STOP);
        try {
            acker.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
