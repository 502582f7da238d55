package io.delayq.reshard;

import io.delayq.queue.QueueProtocol;
import io.delayq.shard.Sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A mover on its own thread, held still (inside its progress callback: no calls, no lease renewals) at the first
 * progress report that matches, until released, so that a test can act on a migration in a known state.
 */
final class HeldMover implements AutoCloseable {
    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final Future<Mover.Result> result;

    private HeldMover(Function<Consumer<Mover.Progress>, Mover.Params> params, Predicate<Mover.Progress> holdAt) {
        result = thread.submit(() -> new Mover(params.apply(p -> {
            if (held.getCount() > 0 && holdAt.test(p)) {
                held.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        })).run());
    }

    /** Starts the mover and waits until it is held. */
    static HeldMover start(Function<Consumer<Mover.Progress>, Mover.Params> params, Predicate<Mover.Progress> holdAt) throws InterruptedException {
        HeldMover m = new HeldMover(params, holdAt);
        if (!m.held.await(20, TimeUnit.SECONDS)) {
            m.close();
            throw new AssertionError("the mover never reached the point to hold it at");
        }
        return m;
    }

    /** Held after its first batch (batch size 1) of a grow to {@code to}. */
    static HeldMover atFirstBatch(QueueProtocol protocol, int to) throws InterruptedException {
        return start(progress -> Mover.Params.of(protocol, to, progress).withBatch(1), p -> p.phase().equals("moving"));
    }

    /** Lets it go on; {@link #result()} then tells how it ended. */
    void release() {
        release.countDown();
    }

    Future<Mover.Result> result() {
        return result;
    }

    /** Ids whose shard changes with a grow from {@code from} to {@code to}, numbered from 0 after {@code prefix}. */
    /**
     * What a mover's move_out takes first from one old shard: the first batch of the sets of a pass (protocol 2's due
     * sets or protocol 3's minutes and windows, {@link ReshardScripts#sets()}) that holds a task of another shard.
     */
    static ReshardScripts.MoveBatch takeOut(QueueProtocol protocol, int shard, int to, int budget) {
        ReshardScripts scripts = new ReshardScripts(protocol.scope());
        ReshardScripts.MoveBatch taken = null;
        for (String set : scripts.sets()) {
            taken = io.delayq.testing.TestQueue.sync(scripts.moveOut(shard, to, set, 0, budget, 1000));
            if (!taken.ids().isEmpty()) {
                return taken;
            }
        }
        return taken;
    }

    static List<String> idsThatMove(String prefix, int count, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int n = 0; ids.size() < count; n++) {
            String id = prefix + n;
            if (Sharding.shardOf(id, from) != Sharding.shardOf(id, to)) {
                ids.add(id);
            }
        }
        return ids;
    }

    @Override
    public void close() {
        release.countDown();
        thread.shutdownNow();
    }
}
