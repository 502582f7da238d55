package io.delayq.cli.backlog;

import io.delayq.backlog.QueueStats;

/**
 * Rates derived from two backlog snapshots. Redis keeps no counters of fired or failed tasks (the
 * workers' {@code delayq_tasks_total} metric does), so these are net changes of the counts:
 * <ul>
 *   <li>fired/s: how fast the waiting backlog (scheduled + due now) shrank, i.e. tasks claimed
 *       minus tasks added; it undercounts by the rate at which producers enqueue meanwhile</li>
 *   <li>done/s: how fast tasks left the queue for good (waiting + in flight shrank, minus those
 *       that went to the dead-letter set): acked or cancelled</li>
 *   <li>failed/s: new dead letters per second (retries that will run again are not visible)</li>
 * </ul>
 * Each is clamped at zero: a growing backlog shows as 0 fired/s, not as a negative rate.
 */
public record BacklogRates(double seconds, double firedPerSecond, double donePerSecond, double failedPerSecond) {

    public static BacklogRates between(QueueStats before, QueueStats after) {
        long t0 = StatsView.serverNow(before);
        long t1 = StatsView.serverNow(after);
        double seconds = Math.max(1, t1 - t0) / 1000.0;
        long waiting0 = before.scheduled() + before.due();
        long waiting1 = after.scheduled() + after.due();
        long deadDelta = Math.max(0, after.dead() - before.dead());
        long leftWaiting = waiting0 - waiting1;
        long leftQueue = (waiting0 + before.inflight()) - (waiting1 + after.inflight()) - deadDelta;
        return new BacklogRates(seconds, Math.max(0, leftWaiting) / seconds, Math.max(0, leftQueue) / seconds, deadDelta / seconds);
    }
}
