package io.delayq.reshard;

import io.delayq.DelayQueueException;

import java.time.Duration;

/**
 * Another mover holds the queue's mover lease (reshard_lease.lua): either it was held when this mover started
 * ({@link #lost()} false: nothing was done), or it was taken over while this mover had stopped renewing for longer
 * than the lease ({@link #lost()} true: this mover stopped, the holder goes on from the same Redis state).
 */
public final class MoverBusyException extends DelayQueueException {
    private final String queue;
    private final String holder;
    private final Duration remaining;
    private final boolean lost;

    /** @param migration what the meta hash says runs ("a migration from 4 to 16 shards is running"), or null */
    public MoverBusyException(String queue, String holder, Duration remaining, boolean lost, String migration) {
        super(lost
                ? "queue '" + queue + "': another mover (" + holder + ") took over the reshard lease while this one had not renewed it; "
                        + "stopped here, " + holder + " goes on from the same state in Redis"
                : (migration == null ? "" : migration + ": ") + "queue '" + queue + "' is being resharded by " + holder + " (its lease runs " + seconds(remaining) + " more unless renewed): "
                        + "wait for it to finish; if that process is gone, run this again after its lease ran out and it resumes the migration");
        this.queue = queue;
        this.holder = holder;
        this.remaining = remaining;
        this.lost = lost;
    }

    private static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    public String queue() {
        return queue;
    }

    /** Who holds the lease, as that mover named itself ({@link Mover.Params#holder()}). */
    public String holder() {
        return holder;
    }

    /** How long the holder's lease still runs if it does not renew it. */
    public Duration remaining() {
        return remaining;
    }

    /** True when this mover had the lease and lost it to {@link #holder()}. */
    public boolean lost() {
        return lost;
    }
}
