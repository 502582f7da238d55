package io.delayq.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the no-op handlers of one workload saw: when each task was first handled, how often it was
 * handled (duplicates), and the first and last handling instants for the drain rate.
 */
final class Recorder {
    private final int tasks;
    private final long[] dueMillis;
    private final AtomicLongArray firstMicros;
    private final AtomicIntegerArray count;
    private final AtomicInteger handled = new AtomicInteger();
    private final AtomicInteger distinct = new AtomicInteger();
    private final AtomicLong firstNanos = new AtomicLong();
    private final AtomicLong lastNanos = new AtomicLong();

    Recorder(int tasks) {
        this.tasks = tasks;
        this.dueMillis = new long[tasks];
        this.firstMicros = new AtomicLongArray(tasks);
        this.count = new AtomicIntegerArray(tasks);
    }

    int tasks() {
        return tasks;
    }

    /** The producer's due time of a task (epoch ms), set before the task is enqueued. */
    void due(int index, long epochMillis) {
        dueMillis[index] = epochMillis;
    }

    void handled(int index) {
        long nanos = System.nanoTime();
        if (count.getAndIncrement(index) == 0) {
            firstMicros.set(index, Clock.nowMicros());
            distinct.incrementAndGet();
        }
        handled.incrementAndGet();
        firstNanos.compareAndSet(0, nanos);
        lastNanos.accumulateAndGet(nanos, Math::max);
    }

    int handledCount() {
        return handled.get();
    }

    int distinct() {
        return distinct.get();
    }

    int duplicates() {
        return handled.get() - distinct.get();
    }

    int lost() {
        return tasks - distinct.get();
    }

    long firstNanos() {
        return firstNanos.get();
    }

    long lastNanos() {
        return lastNanos.get();
    }

    /** Waits (polling every millisecond) until {@code target} distinct tasks were handled; false on time-out. */
    boolean awaitDistinct(int target, long timeoutMillis) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (distinct.get() < target) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Pause.millis(1);
        }
        return true;
    }

    /** Writes index, due ms, first handled µs (for looking into a lag distribution by hand: -Dbench.dump=PREFIX). */
    void dump(java.nio.file.Path file) {
        StringBuilder out = new StringBuilder("index,due_ms,first_handled_us,count\n");
        for (int i = 0; i < tasks; i++) {
            out.append(i).append(',').append(dueMillis[i]).append(',').append(firstMicros.get(i)).append(',').append(count.get(i)).append('\n');
        }
        try {
            java.nio.file.Files.writeString(file, out);
        } catch (java.io.IOException e) {
            System.err.println("cannot write " + file + ": " + e);
        }
    }

    /** Lag of every handled task in microseconds (first handling − due), for the tasks handled. */
    long[] lagsMicros() {
        long[] out = new long[distinct.get()];
        int k = 0;
        for (int i = 0; i < tasks && k < out.length; i++) {
            if (count.get(i) > 0) {
                out[k++] = firstMicros.get(i) - dueMillis[i] * 1000L;
            }
        }
        return k == out.length ? out : java.util.Arrays.copyOf(out, k);
    }
}
