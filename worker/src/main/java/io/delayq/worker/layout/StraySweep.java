package io.delayq.worker.layout;

import io.delayq.layout.Layout;
import io.delayq.queue.QueueProtocol;
import io.delayq.reshard.ReshardScripts;
import io.delayq.reshard.ReshardScripts.MoveBatch;
import io.delayq.redis.Replies;
import io.delayq.reshard.Mover;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Moves strays home: after a queue grew, a stale hand-written producer still on an earlier count writes to
 * {@code crc32(id) mod M}. Such a task fires (its shard is served), but an id lookup of a client of the new count
 * looks on its new shard first and an enqueue there only, so a duplicate can slip in beside it. This sweep walks the
 * worker's own shards that an earlier count had, with the mover's scripts (move_out, then move_in on the home shard,
 * move_done), one bounded call per tick, so a fleet sweeps at a rate Redis does not notice. It stays idle on a queue
 * never grown and while a migration runs (the mover does that work then); tasks due within the window stay and fire
 * where they are, as during a migration.
 */
public final class StraySweep implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(StraySweep.class);
    /**
     * @param owned      the worker's shards (only those an earlier count had can hold strays)
     * @param budget     entries one move_out looks at
     * @param roundPause how long to rest after a round over the owned shards
     * @param window     strays due sooner than this stay and fire where they are
     * @param timeout    per Redis call
     * @param moved      told how many strays each call moved home (the metric)
     * @param clock      nanoTime (tests may drive it)
     */
    public record Params(QueueProtocol protocol, List<Integer> owned, int budget, Duration roundPause, Duration window, Duration timeout,
                         LongConsumer moved, LongSupplier clock) {
        public Params {
            owned = List.copyOf(owned);
            if (budget < 1 || budget > 1000) {
                throw new IllegalArgumentException("budget: must be between 1 and 1000, got " + budget);
            }
        }

        /** 100 entries per call, one call per tick, a round every minute. */
        public static Params of(QueueProtocol protocol, List<Integer> owned, LongConsumer moved) {
            return new Params(protocol, owned, 100, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofSeconds(5), moved, System::nanoTime);
        }
    }

    /** How often {@link #run} should be called: one move_out per call, so at most 10 a second per worker. */
    public static final Duration TICK = Duration.ofMillis(100);

    private final Params p;
    private long restUntil;
    private int shardIndex = -1;
    private int setIndex;
    private long offset;
    private long movedThisRound;

    public StraySweep(Params params) {
        this.p = params;
        this.restUntil = params.clock().getAsLong(); // nanoTime may be negative: "now" means the first round starts at once
    }

    @Override
    public void run() {
        if (p.clock().getAsLong() - restUntil < 0) {
            return;
        }
        Layout layout = Replies.await(p.protocol().refreshLayout(), p.timeout());
        int oldest = earlierMax(layout);
        if (layout.migrating() || oldest == 0) {
            rest(); // nothing can be a stray yet, or the mover does this work now: look again next round
            return;
        }
        if (shardIndex < 0) {
            shardIndex = 0;
            setIndex = 0;
            offset = 0;
            movedThisRound = 0;
        }
        while (shardIndex < p.owned().size() && p.owned().get(shardIndex) >= Math.min(oldest, layout.shards())) {
            shardIndex++;
        }
        if (shardIndex >= p.owned().size()) {
            if (movedThisRound > 0) {
                LOG.info("stray sweep: moved {} task(s) written under an earlier shard count to their shard of the {}-shard layout",
                        movedThisRound, layout.shards());
            }
            shardIndex = -1;
            rest();
            return;
        }
        int shard = p.owned().get(shardIndex);
        ReshardScripts scripts = new ReshardScripts(p.protocol().scope());
        List<String> sets = scripts.straySets();
        MoveBatch b = Replies.await(scripts.moveOut(shard, layout.shards(), sets.get(setIndex), offset, p.budget(), p.window().toMillis()),
                p.timeout());
        if (!b.ids().isEmpty()) {
            long n = Mover.deliver(scripts, shard, b, layout.shards(), p.timeout());
            movedThisRound += n;
            p.moved().accept(n);
        }
        if (b.pending()) {
            return; // a batch left by a crash (of this sweep or a mover): delivered now, then this set goes on
        }
        offset = b.nextOffset();
        if (offset < 0) {
            offset = 0;
            if (++setIndex == sets.size()) {
                setIndex = 0;
                shardIndex++;
            }
        }
    }

    /** The largest count the queue had before its current one (0: never grown). */
    static int earlierMax(Layout layout) {
        int max = 0;
        for (int count : layout.history()) {
            if (count != layout.shards()) {
                max = Math.max(max, count);
            }
        }
        return max;
    }

    private void rest() {
        restUntil = p.clock().getAsLong() + p.roundPause().toNanos();
    }
}
