package io.delayq.worker.dispatch;

import io.delayq.worker.lease.Leased;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Tasks claimed ahead of their due time (claim.lua's ARGV[7]), held until their shard's server clock surely reads
 * the due time ({@link ServerClock#nanoTimeAt}), then handed to {@code fire}. A trickle of tasks a few
 * milliseconds apart then costs one claim per window instead of one per task, and a task's lag loses the claim's
 * round trip. A held task holds no handler slot while it waits (at 1,000 tasks/s and a 100 ms window ~100 wait at
 * once); at most {@code capacity} are held, and {@link #room} is what a claim may take ahead. A held task is in
 * flight under its claim's lease like any other, so the lease keeper renews it and a crash leaves it to the
 * reclaimer.
 */
final class HeldUntilDue {
    private final int capacity;
    private final ServerClock clock;
    private final Consumer<List<Leased>> fire;
    private final ScheduledExecutorService timer;
    private final Pending held = new Pending();

    HeldUntilDue(int capacity, ServerClock clock, Consumer<List<Leased>> fire) {
        this.capacity = capacity;
        this.clock = clock;
        this.fire = fire;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "delayq-held");
            t.setDaemon(true);
            return t;
        });
    }

    /** How many more tasks may be held. */
    int room() {
        return Math.max(0, capacity - held.count());
    }

    int size() {
        return held.count();
    }

    /** Holds the tasks of one claim answer that are not due yet; those due in the same millisecond fire together. */
    void hold(int shard, List<Leased> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        held.begin(tasks.size());
        List<Leased> sorted = new ArrayList<>(tasks);
        sorted.sort((a, b) -> Long.compare(a.task().dueAt(), b.task().dueAt()));
        int from = 0;
        for (int i = 1; i <= sorted.size(); i++) {
            if (i == sorted.size() || sorted.get(i).task().dueAt() != sorted.get(from).task().dueAt()) {
                schedule(shard, sorted.get(from).task().dueAt(), List.copyOf(sorted.subList(from, i)));
                from = i;
            }
        }
    }

    private void schedule(int shard, long dueAt, List<Leased> group) {
        long wait = clock.nanoTimeAt(shard, dueAt) - System.nanoTime();
        timer.schedule(() -> due(shard, dueAt, group), Math.max(0, wait), TimeUnit.NANOSECONDS);
    }

    private void due(int shard, long dueAt, List<Leased> group) {
        // looked at again: the clock's bound may have moved since the task was held (a new window, a clock set back)
        if (clock.nanoTimeAt(shard, dueAt) - System.nanoTime() > 0) {
            schedule(shard, dueAt, group);
            return;
        }
        try {
            fire.accept(group);
        } finally {
            // only once handed on: a stopping worker that saw the count reach zero shuts its handler pool down next,
            // and a group counted off before fire() reached the pool was refused there and left in flight
            held.end(group.size());
        }
    }

    /** After the claims stopped: waits until every held task has been handed on (they are at most a window away). */
    boolean awaitEmpty(Duration timeout) {
        return held.awaitNone(timeout);
    }

    /** Drops what is still held: those tasks stay in flight in Redis and are re-delivered after their lease. */
    void close() {
        timer.shutdownNow();
    }
}
