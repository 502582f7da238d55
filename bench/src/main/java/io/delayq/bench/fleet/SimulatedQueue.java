package io.delayq.bench.fleet;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's tasks in a simulated Redis, fired earliest due first: the fired ones are a prefix of the due times.
 * Answers what stats.lua and forecast.lua answer the operator: the due backlog, and per window the waiting tasks due
 * in (now, now + window] plus the next due time.
 */
final class SimulatedQueue {
    private final DueTimes tasks;
    private final long[] lagMs;
    private int fired;

    SimulatedQueue(DueTimes tasks) {
        this.tasks = tasks;
        this.lagMs = new long[tasks.size()];
    }

    /** Due and not yet fired. */
    long due(long now) {
        return Math.max(0, tasks.dueBy(now) - fired);
    }

    DueForecast forecast(long now, List<Duration> windows) {
        int dueNow = tasks.dueBy(now);
        List<DueWindow> counts = new ArrayList<>(windows.size());
        for (Duration w : windows) {
            counts.add(new DueWindow(w, tasks.dueBy(now + w.toMillis()) - dueNow));
        }
        return new DueForecast(now, dueNow < tasks.size() ? tasks.at(dueNow) : -1, counts);
    }

    boolean hasUnfired() {
        return fired < tasks.size();
    }

    long nextUnfiredDue() {
        return tasks.at(fired);
    }

    /** Fires the earliest unfired task at {@code time} (never before its due time). */
    void fire(long time) {
        long due = tasks.at(fired);
        if (time < due) {
            throw new IllegalStateException("task " + fired + " fired at " + time + ", before its due time " + due);
        }
        lagMs[fired++] = time - due;
    }

    int fired() {
        return fired;
    }

    int size() {
        return tasks.size();
    }

    LagStats lags() {
        return LagStats.of(lagMs, fired);
    }
}
