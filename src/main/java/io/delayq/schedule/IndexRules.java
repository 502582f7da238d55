package io.delayq.schedule;

import java.time.Duration;

/**
 * How a planning turn finds the schedules it plans. Indexed (the default), a turn takes from
 * {@code dq:{q}:schedules:due} only the schedules whose next planning time has come and reads just
 * their definitions and states; it reads every schedule only on its planner's first turn and when the
 * index lacks schedules (written by a version before it, or lost), which rebuilds the index.
 *
 * @param indexed  false: every turn reads and plans every schedule and leaves the index alone (the
 *                 planner before the index; kept as the benchmark's baseline)
 * @param lease    a schedule taken for a turn is not taken again by another planner for this long,
 *                 unless its planner finished with it (a planner that died mid-turn leaves it for this long)
 * @param maxIdle  every schedule is planned at least this often, whatever its cron (bounds how long a
 *                 change written without the index stays unseen)
 * @param batch    names taken per schedule_take call (bounds each script)
 * @param maxPerTurn schedules planned per turn at most; the rest wait for the next turn
 */
public record IndexRules(boolean indexed, Duration lease, Duration maxIdle, int batch, int maxPerTurn) {

    public IndexRules {
        if (lease.isNegative() || lease.isZero() || maxIdle.compareTo(lease) < 0 || batch < 1 || batch > 1000 || maxPerTurn < batch) {
            throw new IllegalArgumentException("index rules: lease > 0, maxIdle >= lease, 1 <= batch <= 1000, maxPerTurn >= batch; got "
                    + lease + ", " + maxIdle + ", " + batch + ", " + maxPerTurn);
        }
    }

    public static IndexRules defaults() {
        return new IndexRules(true, Duration.ofSeconds(30), Duration.ofMinutes(10), 1000, 50_000);
    }

    /** Every turn reads every schedule: the planner before the index. */
    public static IndexRules readEverything() {
        return new IndexRules(false, Duration.ofSeconds(30), Duration.ofMinutes(10), 1000, 50_000);
    }

    public IndexRules lease(Duration lease) {
        return new IndexRules(indexed, lease, maxIdle.compareTo(lease) < 0 ? lease : maxIdle, batch, maxPerTurn);
    }
}
