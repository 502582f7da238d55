package io.delayq.worker.dispatch;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * At most {@code limit} asynchronous deliveries in flight: the handler threads start deliveries without waiting for
 * them, so the thread count no longer bounds them (the claim buffer beyond the concurrency would go out at once too).
 * The rest wait here in order and start as deliveries in flight complete, on the thread that completed them. Nothing
 * blocks: a start that finds no room is queued.
 */
final class InFlightLimit {
    private final int limit;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private int running;
    /** Calls to {@link #drain} not yet served: one thread drains at a time, the others' calls make it look again. */
    private final AtomicInteger drains = new AtomicInteger();

    InFlightLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    /** Runs {@code start} now if there is room, else once there is; {@code start} calls {@link #finished} when its delivery completed. */
    void submit(Runnable start) {
        synchronized (this) {
            waiting.add(start);
        }
        drain();
    }

    /** A delivery started by {@link #submit} completed: its room goes to the next one waiting. */
    void finished() {
        synchronized (this) {
            running--;
        }
        drain();
    }

    /**
     * Starts what fits. Iterative, not recursive: a delivery that completes while it starts (an expired task, a refused
     * connection) calls {@link #finished} from inside {@code start}, and a long queue of those must not grow the stack.
     */
    private void drain() {
        if (drains.getAndIncrement() != 0) {
            return;
        }
        do {
            while (true) {
                Runnable next;
                synchronized (this) {
                    if (running >= limit || waiting.isEmpty()) {
                        break;
                    }
                    running++;
                    next = waiting.poll();
                }
                try {
                    next.run();
                } catch (RuntimeException e) {
                    // a start settles whatever goes wrong (TaskRunner); this only keeps the loop going for the others
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
            }
        } while (drains.decrementAndGet() != 0);
    }

    synchronized int running() {
        return running;
    }
}
