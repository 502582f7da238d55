package io.delayq.reshard;

import io.delayq.DelayQueueException;
import io.delayq.InvalidInputException;
import io.delayq.layout.Layout;
import io.delayq.queue.QueueProtocol;
import io.delayq.queue.QueueProtocol.MoveBatch;
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
 * Grows a queue to a larger shard count while it runs (docs/resharding.md): records the migration in the
 * meta hash, stamps every shard of the new layout, then moves each waiting or dead task whose id belongs to
 * another shard now, batch by batch (move_out on the old shard, move_in on the new, move_done), in passes
 * over the old shards until none holds a task of another shard, and ends the migration. Everything it needs
 * to go on is in Redis (the meta hash and each old shard's {@code moving} batch), so running it again after
 * a crash resumes where it stopped. One mover per queue at a time.
 */
public final class Mover {
    /**
     * @param batch    entries one move_out looks at (and at most moves): the bound of each script call
     * @param window   tasks due sooner than this stay where they are and fire there (a later pass moves what remains)
     * @param idle     how long to wait between passes while tasks of another shard are still in flight
     * @param progress told after every batch and pass
     */
    public record Params(QueueProtocol protocol, int to, int batch, Duration window, Duration idle, Duration timeout,
                         Consumer<Progress> progress) {
        public Params {
            Sharding.requireShardCount(to);
            if (batch < 1 || batch > 1000) {
                throw new InvalidInputException("batch", "must be between 1 and 1000, got " + batch);
            }
        }

        public static Params of(QueueProtocol protocol, int to, Consumer<Progress> progress) {
            return new Params(protocol, to, 100, Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofSeconds(10), progress);
        }

        public Params withBatch(int b) {
            return new Params(protocol, to, b, window, idle, timeout, progress);
        }
    }

    /** Where a migration stands; {@code left}: tasks the current pass has not looked at, plus those still to move. */
    public record Progress(String phase, int from, int to, int pass, long moved, long left, long inFlightElsewhere) {
    }

    /** What a finished run did; {@code alreadyThere}: the queue had that count already, nothing moved. */
    public record Result(boolean resumed, int from, int to, long moved, int passes, long epoch, boolean alreadyThere) {
    }

    /** move_out.lua's sets; "g": every group's waiting tasks (through {@code due:g}). */
    private static final String[] SETS = {"0", "1", "2", "g", "dead", "inflight"};

    private final Params p;
    private final QueueProtocol protocol;
    private long moved;

    public Mover(Params params) {
        this.p = params;
        this.protocol = params.protocol();
    }

    public Result run() {
        List<Object> begun = await(protocol.reshardBegin(p.to()));
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
        boolean lastLook = false;
        while (true) {
            passes++;
            // the last look moves overdue tasks too, so that none is left where an enqueue after the migration would not look
            Pass pass = pass(from, passes, lastLook ? -1_000_000_000_000_000L : p.window().toMillis());
            if (pass.misplacedInflight == 0 && lastLook) {
                break;
            }
            // in-flight tasks of another shard are acked, retried or reclaimed where they are; wait for them
            lastLook = pass.misplacedInflight == 0;
            if (!lastLook) {
                report("waiting for in-flight tasks", from, passes, pass.skipped + pass.misplacedInflight, pass.misplacedInflight);
                sleep(p.idle());
            }
        }
        await(protocol.recordProgress(moved, 0));
        long finished = await(protocol.reshardFinish(epoch, moved));
        Layout done = await(protocol.refreshLayout());
        stampAll(done);
        report("done", from, passes, 0, 0);
        return new Result(resumed, from, p.to(), moved, passes, finished, false);
    }

    private record Pass(long skipped, long misplacedInflight) {
    }

    private Pass pass(int from, int number, long windowMillis) {
        long total = 0;
        for (int shard = 0; shard < from; shard++) {
            total += waiting(shard);
        }
        long looked = 0;
        long skipped = 0;
        long misplaced = 0;
        for (int shard = 0; shard < from; shard++) {
            for (String set : SETS) {
                long offset = 0;
                while (offset >= 0) {
                    MoveBatch b = await(protocol.moveOut(shard, p.to(), set, offset, p.batch(), windowMillis));
                    if (!b.ids().isEmpty()) {
                        deliver(shard, b);
                    }
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
        await(protocol.recordProgress(moved, skipped + misplaced));
        return new Pass(skipped, misplaced);
    }

    /** move_in on every new shard of the batch, then move_done on the old one. */
    private void deliver(int source, MoveBatch b) {
        Map<Integer, List<Integer>> byTarget = new LinkedHashMap<>();
        for (int i = 0; i < b.ids().size(); i++) {
            byTarget.computeIfAbsent(Sharding.shardOf(b.ids().get(i), p.to()), s -> new ArrayList<>()).add(i);
        }
        List<CompletableFuture<List<Long>>> ins = new ArrayList<>();
        byTarget.forEach((target, idx) -> ins.add(protocol.moveIn(target, source, b.seq(),
                idx.stream().map(b.ids()::get).toList(), idx.stream().map(b.states()::get).toList()).toCompletableFuture()));
        for (CompletableFuture<List<Long>> in : ins) {
            List<Long> r = await(in);
            moved += r.get(0) + r.get(1);
        }
        await(protocol.moveDone(source, b.seq()));
    }

    private long waiting(int shard) {
        return await(protocol.waitingCount(shard));
    }

    private void stampAll(Layout layout) {
        List<CompletableFuture<Boolean>> writes = new ArrayList<>();
        for (int shard = 0; shard < layout.shards(); shard++) {
            writes.add(protocol.stamp(shard, layout).toCompletableFuture());
        }
        writes.forEach(this::await);
    }

    private long lastReport;

    private void report(String phase, int from, int pass, long left, long inFlight) {
        p.progress().accept(new Progress(phase, from, p.to(), pass, moved, left, inFlight));
        long now = System.nanoTime();
        if (now - lastReport > 1_000_000_000L) {
            lastReport = now;
            await(protocol.recordProgress(moved, left));
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
