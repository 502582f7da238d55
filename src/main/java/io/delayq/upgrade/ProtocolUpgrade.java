package io.delayq.upgrade;

import io.delayq.InvalidInputException;
import io.delayq.bucket.BucketLayout;
import io.delayq.bucket.BucketScript;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.Replies;
import io.lettuce.core.RedisCommandExecutionException;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static io.delayq.redis.Replies.asLong;

/**
 * Upgrades a queue of protocol 2 to protocol 3 in place, while its producers and workers go on (docs/protocol3.md,
 * "Upgrade in place"): records protocol 3 in the queue's meta (every process switches when it next reads it; until
 * then it goes on speaking protocol 2, whose tasks protocol 3 adopts), then runs every shard's bounded steps
 * ({@code p3/upgrade_step.lua}) until none of protocol 2's tasks is left but those still in flight. Run it again after
 * a kill: every step is one script, and the meta's protocol is written once.
 */
public final class ProtocolUpgrade {
    /** Waiting tasks of each due set, and dead letters, one step moves at most: a step holds Redis a few ms. */
    public static final int STEP = 500;
    /** Between rounds over the shards whose in-flight tasks of protocol 2 are still running. */
    private static final Duration ROUND = Duration.ofMillis(200);

    /** The meta's field with the server time (ms) protocol 3 was recorded at by an upgrade in place. */
    public static final String UPGRADED_AT = "upgradedAt";

    private final QueueProtocol protocol;
    private final Duration timeout;
    private final Duration inFlightPatience;

    /**
     * @param timeout          of each Redis call
     * @param inFlightPatience how long to wait for the tasks protocol 2 holds in flight to finish (an upgrade run again
     *                         later finishes the shards they kept open)
     */
    public ProtocolUpgrade(QueueProtocol protocol, Duration timeout, Duration inFlightPatience) {
        this.protocol = protocol;
        this.timeout = timeout;
        this.inFlightPatience = inFlightPatience;
    }

    /**
     * What an upgrade moved, and the tasks protocol 2 still held in flight when it ended (they finish there; their
     * shards keep protocol 2's mark until an upgrade run again finds them empty).
     */
    public record Result(long waitingAdopted, long deadAdopted, long stillInFlight, int steps) {
        public boolean done() {
            return stillInFlight == 0;
        }
    }

    /**
     * @throws InvalidInputException when the queue is being resharded
     */
    public Result run() {
        int shards = protocol.shards();
        // the reshard check and the meta's protocol in one call (upgrade_begin.lua); run again, it changes nothing
        try {
            Replies.await(protocol.scripts().<Long>run(BucketScript.UPGRADE_BEGIN, List.of(protocol.scope().meta()), List.of()), timeout);
        } catch (RedisCommandExecutionException e) {
            if (String.valueOf(e.getMessage()).startsWith("RESHARD")) {
                throw new InvalidInputException("upgrade", "queue '" + protocol.queue() + "' is being resharded; upgrade it once the reshard is done ("
                        + e.getMessage() + ")");
            }
            throw e;
        }
        Replies.await(protocol.refreshLayout(), timeout);
        long waiting = 0;
        long dead = 0;
        int steps = 0;
        long[] inFlight = new long[shards];
        boolean[] done = new boolean[shards];
        long patience = System.nanoTime() + inFlightPatience.toNanos();
        while (true) {
            boolean all = true;
            for (int shard = 0; shard < shards; shard++) {
                // a shard's steps until only tasks protocol 2 holds in flight are left (they finish there, or the
                // reclaim sweep adopts them when their lease expires)
                while (!done[shard]) {
                    List<Object> r = Replies.await(protocol.scripts().<List<Object>>run(BucketScript.UPGRADE_STEP,
                            List.of(BucketLayout.prefix(protocol.queue(), shard)), List.of(String.valueOf(STEP))), timeout);
                    steps++;
                    waiting += asLong(r.get(0));
                    dead += asLong(r.get(1));
                    inFlight[shard] = asLong(r.get(2));
                    done[shard] = asLong(r.get(3)) == 1;
                    if (asLong(r.get(0)) == 0 && asLong(r.get(4)) == 1) {
                        break;
                    }
                }
                all &= done[shard];
            }
            if (all || System.nanoTime() > patience) {
                break;
            }
            try {
                Thread.sleep(ROUND.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new Result(waiting, dead, Arrays.stream(inFlight).sum(), steps);
    }
}
