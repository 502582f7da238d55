package io.delayq.reshard;

import io.delayq.DelayQueueException;
import io.delayq.InvalidInputException;
import io.delayq.layout.Layout;
import io.delayq.queue.QueueProtocol;
import io.delayq.reshard.ReshardScripts.MoveBatch;
import io.delayq.shard.ShardKeys;
import io.delayq.shard.Sharding;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Grows a queue to a larger shard count while it runs (docs/resharding.md): takes the queue's mover lease,
 * records the migration in the meta hash, stamps every shard of the new layout, then moves each waiting or dead
 * task whose id belongs to another shard now, batch by batch (move_out on the old shard, move_in on the new,
 * move_done), in passes over the old shards until none holds a task of another shard, copies the old shards'
 * once-mode entries to the ids' new shards, and ends the migration. Everything it needs to go on is in Redis
 * (the meta hash and each old shard's {@code moving} batch), so running it again after a crash resumes where it
 * stopped. One mover per queue at a time: the lease (meta field {@code mover}, renewed while the mover runs) refuses
 * a second one with {@link MoverBusyException} naming the holder, and lets the next one take over once a crashed
 * holder stopped renewing.
 */
public final class Mover {
    /** How long a mover's lease runs without a renewal; it renews every third of that. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);
    /**
     * The pause after each move_out call. Back to back, the mover's batches keep Redis 70-80 % busy and claims queue
     * behind them (firing p99 17-24x the same run without a migration, docs/resharding.md); with batches of
     * {@link #DEFAULT_BATCH} and this pause the p99 stayed within 2x, at about 2.5 minutes per million tasks moved.
     */
    public static final Duration DEFAULT_PAUSE = Duration.ofMillis(3);
    /** Entries one move_out looks at: a claim that arrives during a move call waits for it, so short calls keep the p99. */
    public static final int DEFAULT_BATCH = 50;

    /**
     * @param batch    entries one move_out looks at (and at most moves): the bound of each script call
     * @param window   tasks due sooner than this stay where they are and fire there (a later pass moves what remains)
     * @param idle     how long to wait between passes while tasks of another shard are still in flight
     * @param progress told after every batch and pass
     * @param holder   this mover's name in the lease (shown to a second mover that is refused): a host and process, a pod
     * @param lease    how long the lease runs without a renewal; longer than {@code timeout}, so that one slow call does not lose it
     * @param pause    the pause after each move_out call, which leaves Redis to the live load ({@link #DEFAULT_PAUSE}; zero: none)
     */
    public record Params(QueueProtocol protocol, int to, int batch, Duration window, Duration idle, Duration timeout,
                         Consumer<Progress> progress, String holder, Duration lease, Duration pause) {
        public Params {
            if (pause == null || pause.isNegative() || pause.compareTo(Duration.ofSeconds(1)) > 0) {
                throw new InvalidInputException("pause", "must be between 0 and 1s, got " + pause);
            }
            Sharding.requireShardCount(to);
            if (batch < 1 || batch > 1000) {
                throw new InvalidInputException("batch", "must be between 1 and 1000, got " + batch);
            }
            if (holder == null || holder.isBlank() || holder.contains("\n")) {
                throw new InvalidInputException("holder", "must be non-empty text without newlines, got \"" + holder + "\"");
            }
            if (lease == null || lease.compareTo(timeout) <= 0) {
                throw new InvalidInputException("lease", "must be longer than the call timeout " + timeout + ", got " + lease);
            }
        }

        /** As before the lease existed: this process's default holder name and {@link #DEFAULT_LEASE}, or three timeouts if longer. */
        public Params(QueueProtocol protocol, int to, int batch, Duration window, Duration idle, Duration timeout, Consumer<Progress> progress) {
            this(protocol, to, batch, window, idle, timeout, progress, defaultHolder(),
                    timeout.multipliedBy(3).compareTo(DEFAULT_LEASE) > 0 ? timeout.multipliedBy(3) : DEFAULT_LEASE, DEFAULT_PAUSE);
        }

        /** {@link #DEFAULT_BATCH}, window 1 s, {@link #DEFAULT_LEASE} with calls timed out after a third of it, this process's holder name. */
        public static Params of(QueueProtocol protocol, int to, Consumer<Progress> progress) {
            return new Params(protocol, to, DEFAULT_BATCH, Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofSeconds(10), progress)
                    .withLease(DEFAULT_LEASE);
        }

        public Params withBatch(int b) {
            return new Params(protocol, to, b, window, idle, timeout, progress, holder, lease, pause);
        }

        public Params withHolder(String h) {
            return new Params(protocol, to, batch, window, idle, timeout, progress, h, lease, pause);
        }

        /** A lease and a call timeout (a third of the lease, at most 10 s). */
        public Params withLease(Duration l) {
            Duration t = l.dividedBy(3).compareTo(Duration.ofSeconds(10)) < 0 ? l.dividedBy(3) : Duration.ofSeconds(10);
            return new Params(protocol, to, batch, window, idle, t, progress, holder, l, pause);
        }

        public Params withPause(Duration d) {
            return new Params(protocol, to, batch, window, idle, timeout, progress, holder, lease, d);
        }

        /** "host pid 1234 #a1b2": tells an operator which process holds a queue's reshard. */
        public static String defaultHolder() {
            String host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                try {
                    host = java.net.InetAddress.getLocalHost().getHostName();
                } catch (java.io.IOException e) {
                    host = "localhost";
                }
            }
            return host + " pid " + ProcessHandle.current().pid() + " #" + Integer.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        }
    }

    /** Where a migration stands; {@code left}: tasks the current pass has not looked at, plus those still to move. */
    public record Progress(String phase, int from, int to, int pass, long moved, long left, long inFlightElsewhere) {
    }

    /** What a finished run did; {@code alreadyThere}: the queue had that count already, nothing moved. */
    public record Result(boolean resumed, int from, int to, long moved, int passes, long epoch, boolean alreadyThere) {
    }

    private final Params p;
    private final QueueProtocol protocol;
    private final ReshardScripts scripts;
    private long moved;

    public Mover(Params params) {
        this.p = params;
        this.protocol = params.protocol();
        this.scripts = new ReshardScripts(protocol.scope());
    }

    public Result run() {
        takeLease();
        try {
            return migrate();
        } finally {
            giveBackLease();
        }
    }

    private Result migrate() {
        List<Object> begun = await(scripts.reshardBegin(p.to()));
        boolean resumed = "resumed".equals(begun.get(0));
        long epoch = ((Number) begun.get(1)).longValue();
        int from = (int) ((Number) begun.get(2)).longValue();
        Layout layout = await(protocol.refreshLayout());
        if ("current".equals(begun.get(0))) {
            // a run that crashed between the end of its migration and the last stamps left some shards stamped
            // with the migration's epoch: rewriting them is what remains
            stampAll(layout);
            return new Result(false, from, p.to(), 0, 0, epoch, true);
        }
        moved = layout.moved();
        report("stamping", from, 0, -1, 0);
        stampAll(layout);
        int passes = 0;
        int cleanLooks = 0;
        boolean lastLook = false;
        while (true) {
            passes++;
            // the last look moves overdue tasks too, so that none is left where an enqueue after the migration would not look
            Pass pass = pass(from, passes, lastLook ? -1_000_000_000_000_000L : p.window().toMillis());
            // a pass walks each set by index, and claims that take tasks ahead of its cursor shift the rest under it,
            // so a pass that still moved something may have stepped over some: only a last look that moved nothing
            // proves the old shards clean. And twice in a row: a task claimed ahead of the walk (in flight when its due
            // set is walked) and retried behind it (back in its due set before the in-flight set is walked) is in
            // neither set when the pass looks, so one clean look can leave it behind; the next look finds it
            if (pass.misplacedInflight == 0 && lastLook && pass.moved == 0) {
                if (++cleanLooks == 2) {
                    break;
                }
            } else {
                cleanLooks = 0;
            }
            // in-flight tasks of another shard are acked, retried or reclaimed where they are; wait for them
            lastLook = pass.misplacedInflight == 0;
            if (!lastLook) {
                report("waiting for in-flight tasks", from, passes, pass.skipped + pass.misplacedInflight, pass.misplacedInflight);
                sleep(p.idle());
                keepLease();
            }
        }
        report("once entries", from, passes, 0, 0);
        copyEntries(from, ShardKeys::once);
        report("dedup windows", from, passes, 0, 0);
        copyEntries(from, ShardKeys::dedup);
        await(scripts.recordProgress(moved, 0));
        keepLease();
        long finished = await(scripts.reshardFinish(epoch, moved));
        Layout done = await(protocol.refreshLayout());
        stampAll(done);
        report("done", from, passes, 0, 0);
        return new Result(resumed, from, p.to(), moved, passes, finished, false);
    }

    private record Pass(long skipped, long misplacedInflight, long moved) {
    }

    private Pass pass(int from, int number, long windowMillis) {
        long total = 0;
        for (int shard = 0; shard < from; shard++) {
            total += waiting(shard);
        }
        long looked = 0;
        long skipped = 0;
        long misplaced = 0;
        long movedBefore = moved;
        for (int shard = 0; shard < from; shard++) {
            for (String set : scripts.sets()) {
                long offset = 0;
                while (offset >= 0) {
                    keepLease();
                    MoveBatch b = await(scripts.moveOut(shard, p.to(), set, offset, p.batch(), windowMillis));
                    if (!b.ids().isEmpty()) {
                        deliver(shard, b);
                    }
                    sleep(p.pause());
                    if (b.pending()) {
                        continue;
                    }
                    offset = b.nextOffset();
                    skipped += b.skipped();
                    misplaced += b.misplacedInflight();
                    if (!set.equals("inflight")) {
                        looked += b.looked();
                    }
                    report("moving", from, number, Math.max(0, total - looked) + skipped, misplaced);
                }
            }
        }
        await(scripts.recordProgress(moved, skipped + misplaced));
        return new Pass(skipped, misplaced, moved - movedBefore);
    }

    private void deliver(int source, MoveBatch b) {
        moved += deliver(scripts, source, b, p.to(), p.timeout());
    }

    /**
     * move_in on every new shard of the batch (by the count the batch was taken for), then move_done on the old one;
     * answers the tasks written or merged. Shared with the worker's stray sweep.
     */
    public static long deliver(ReshardScripts scripts, int source, MoveBatch b, int to, Duration timeout) {
        int by = b.deliverBy(to);
        Map<Integer, List<Integer>> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < b.ids().size(); i++) {
            byTarget.computeIfAbsent(Sharding.shardOf(b.ids().get(i), by), s -> new ArrayList<>()).add(i);
        }
        List<CompletableFuture<List<Long>>> ins = new ArrayList<>();
        byTarget.forEach((target, idx) -> ins.add(scripts.moveIn(target, source, b.seq(),
                idx.stream().map(b.ids()::get).toList(), idx.stream().map(b.states()::get).toList()).toCompletableFuture()));
        long written = 0;
        for (CompletableFuture<List<Long>> in : ins) {
            List<Long> r = io.delayq.redis.Replies.await(in, timeout);
            written += r.get(0) + r.get(1);
        }
        io.delayq.redis.Replies.await(scripts.moveDone(source, b.seq()), timeout);
        return written;
    }

    /**
     * Copies the once-mode entries (recurring-task occurrences already enqueued, dq:{q:i}:once) of ids that now
     * belong to another shard to that shard, so that an occurrence enqueued before the move is still refused after
     * it, when enqueues go to the new shard only. During the migration the old shard answers for them itself
     * (enqueue.lua refuses a once-mode id its `once` set holds even when asked to act only on ids present).
     * Copied, not moved: the old entries age out with the week they are kept, and a copy sent twice changes nothing.
     * Read by score, then member, in pages of the batch size: entries aged out meanwhile only shift the page.
     * The dedup windows (dq:{q:i}:dedup, include/dedup.lua) are copied the same way after the last pass: a window that
     * runs and the pending window of a task that moved (minus its length) reach the id's new shard, where enqueues
     * and settles of the id happen from then on; during the migration the old shard answers "window" itself (its
     * enqueue checks the window before it asks whether the id is present). The copies left behind age out there.
     */
    private void copyEntries(int from, java.util.function.Function<ShardKeys, String> set) {
        for (int shard = 0; shard < from; shard++) {
            double score = Double.NEGATIVE_INFINITY;
            long skip = 0;
            while (true) {
                keepLease();
                List<io.lettuce.core.ScoredValue<String>> page = await(scripts.entries(set.apply(p.protocol().keys(shard)), score, skip, p.batch()));
                if (page.isEmpty()) {
                    break;
                }
                Map<Integer, List<io.lettuce.core.ScoredValue<String>>> byTarget = new LinkedHashMap<>();
                for (io.lettuce.core.ScoredValue<String> e : page) {
                    int target = Sharding.shardOf(e.getValue(), p.to());
                    if (target != shard) {
                        byTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(e);
                    }
                    skip = e.getScore() == score ? skip + 1 : 1;
                    score = e.getScore();
                }
                List<CompletableFuture<Long>> writes = new ArrayList<>();
                byTarget.forEach((target, entries) -> writes.add(scripts.addEntries(set.apply(p.protocol().keys(target)), entries).toCompletableFuture()));
                writes.forEach(this::await);
                if (page.size() < p.batch()) {
                    break;
                }
            }
        }
    }

    private long leaseRenewedAt;

    private void takeLease() {
        ReshardScripts.MoverLease l = await(scripts.moverLease("take", p.holder(), p.lease()));
        if (!l.held()) {
            Layout now = await(protocol.refreshLayout());
            throw new MoverBusyException(protocol.queue(), l.holder(), Duration.ofMillis(l.millisLeft()), false,
                    now.migrating() ? "a migration from " + now.from() + " to " + now.shards() + " shards is running" : null);
        }
        leaseRenewedAt = System.nanoTime();
    }

    /** Renews the lease every third of its length; a mover that finds another holder stops (it was taken over). */
    private void keepLease() {
        if (System.nanoTime() - leaseRenewedAt < p.lease().toNanos() / 3) {
            return;
        }
        ReshardScripts.MoverLease l = await(scripts.moverLease("renew", p.holder(), p.lease()));
        if (!l.held()) {
            throw new MoverBusyException(protocol.queue(), l.holder().isEmpty() ? "a mover that has finished since" : l.holder(), Duration.ofMillis(l.millisLeft()), true, null);
        }
        leaseRenewedAt = System.nanoTime();
    }

    private void giveBackLease() {
        // a mover stopped by an interrupt gives its lease back too: with the flag set the wait for the answer would
        // fail at once, and the next mover (an operator's next job) would be refused until the lease ran out
        boolean interrupted = Thread.interrupted();
        try {
            await(scripts.moverLease("give-back", p.holder(), Duration.ZERO));
        } catch (RuntimeException e) {
            // Redis away: the lease runs out by itself, and this holder's next run takes it back at once
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private long waiting(int shard) {
        return await(scripts.waitingCount(shard));
    }

    private void stampAll(Layout layout) {
        List<CompletableFuture<Boolean>> writes = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            writes.add(scripts.stamp(shard, layout).toCompletableFuture());
        }
        writes.forEach(this::await);
    }

    private long lastReport;

    private void report(String phase, int from, int pass, long left, long inFlight) {
        p.progress().accept(new Progress(phase, from, p.to(), pass, moved, left, inFlight));
        keepLease();
        long now = System.nanoTime();
        if (now - lastReport > 1_000_000_000L) {
            lastReport = now;
            await(scripts.recordProgress(moved, left));
        }
    }

    private <T> T await(CompletionStage<T> stage) {
        return io.delayq.redis.Replies.await(stage, p.timeout());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DelayQueueException("reshard interrupted; run it again to resume");
        }
    }
}
