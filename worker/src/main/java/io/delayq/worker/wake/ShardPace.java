package io.delayq.worker.wake;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntConsumer;

/**
 * Visits a list of shards round and round at a bounded rate: every shard once per {@code period}, or, when that
 * would be more than {@code maxPerSecond} visits a second, as fast as that allows. An idle worker's cost is then a
 * constant number of commands per second whatever its shard count; with many shards a round just takes longer.
 * The first visit starts at a random shard, so that the replicas of a fleet do not visit in lockstep.
 */
public final class ShardPace {
    private final int[] shards;
    private final double perNano;
    private long last;
    private double budget;
    private int next;

    public ShardPace(List<Integer> shards, Duration period, int maxPerSecond) {
        this.shards = shards.stream().mapToInt(Integer::intValue).toArray();
        double perSecond = Math.min((double) this.shards.length * 1e9 / Math.max(1, period.toNanos()), maxPerSecond);
        this.perNano = perSecond / 1e9;
        this.next = this.shards.length == 0 ? 0 : ThreadLocalRandom.current().nextInt(this.shards.length);
        this.last = System.nanoTime();
    }

    /** How long one round over every shard takes. */
    public Duration round() {
        return Duration.ofNanos(perNano == 0 ? Long.MAX_VALUE : (long) (shards.length / perNano));
    }

    /** Hands {@code visit} the shards whose turn has come since the last call. */
    public synchronized void take(long nowNanos, IntConsumer visit) {
        if (shards.length == 0) {
            return;
        }
        // at most one round's worth at once: a timer that fell behind (a paused JVM) must not burst
        budget = Math.min(shards.length, budget + (nowNanos - last) * perNano);
        last = nowNanos;
        while (budget >= 1) {
            budget -= 1;
            visit.accept(shards[next]);
            next = (next + 1) % shards.length;
        }
    }
}
