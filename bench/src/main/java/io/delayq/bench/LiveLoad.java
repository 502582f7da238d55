package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntPredicate;

/**
 * Steady new work: {@code rate} tasks a second ({@code live-<n>}), each due a random {@code minDelay..maxDelay}
 * ms after it is written, enqueued in small batches on a schedule (a call that fails is sent again with the same
 * ids; a retry answered "duplicate" landed the first time), and what the handler saw of each: when it first ran
 * (µs), how often. Lag = first run − due; a run before the due time is early.
 */
final class LiveLoad implements AutoCloseable {
    static final String PREFIX = "live-";

    private final DelayQueueClient client;
    private final int rate;
    private final long minDelay;
    private final long maxDelay;
    private final long[] due;
    private final AtomicLongArray firstMicros;
    private final AtomicIntegerArray runs;
    private final AtomicInteger produced = new AtomicInteger();
    private final AtomicLong failedCalls = new AtomicLong();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final Thread thread;
    private volatile Throwable crashed;

    LiveLoad(DelayQueueClient client, int rate, long minDelay, long maxDelay, int capacity) {
        this.client = client;
        this.rate = rate;
        this.minDelay = minDelay;
        this.maxDelay = maxDelay;
        this.due = new long[capacity];
        this.firstMicros = new AtomicLongArray(capacity);
        this.runs = new AtomicIntegerArray(capacity);
        this.thread = new Thread(this::produce, "live-producer");
        this.thread.setDaemon(true);
    }

    LiveLoad start() {
        thread.start();
        return this;
    }

    private void produce() {
        try {
            long t0 = System.nanoTime();
            while (producing.get()) {
                int owed = (int) Math.min(due.length, (System.nanoTime() - t0) / 1e9 * rate) - produced.get();
                if (owed <= 0) {
                    Pause.millis(5); // the schedule's pace
                    continue;
                }
                int n = Math.min(owed, 200);
                int from = produced.get();
                List<TaskSpec> batch = new ArrayList<>(n);
                long now = System.currentTimeMillis();
                for (int i = from; i < from + n; i++) {
                    due[i] = now + ThreadLocalRandom.current().nextLong(minDelay, maxDelay + 1);
                    batch.add(TaskSpec.of(PREFIX + i).at(Instant.ofEpochMilli(due[i])));
                }
                send(batch);
                produced.addAndGet(n);
            }
        } catch (Throwable t) {
            crashed = t;
        }
    }

    private void send(List<TaskSpec> batch) {
        boolean retry = false;
        while (true) {
            try {
                for (EnqueueResult r : client.enqueueAll(batch)) {
                    if (r.status() != EnqueueResult.Status.ADDED && !(retry && r.status() == EnqueueResult.Status.DUPLICATE)) {
                        throw new IllegalStateException("enqueue of " + r.id() + " answered " + r.status());
                    }
                }
                return;
            } catch (IllegalStateException e) {
                throw e;
            } catch (RuntimeException e) {
                failedCalls.incrementAndGet();
                retry = true;
                Pause.millis(50);
            }
        }
    }

    /** The handler's side: called with the task id when it runs. */
    void ran(String id) {
        int i = Integer.parseInt(id.substring(PREFIX.length()));
        long now = Clock.nowMicros();
        if (runs.getAndIncrement(i) == 0) {
            firstMicros.set(i, now);
        }
    }

    void stopProducing() throws InterruptedException {
        producing.set(false);
        thread.join(30_000);
        if (crashed != null) {
            throw new IllegalStateException("the live producer crashed: " + crashed, crashed);
        }
    }

    int produced() {
        return produced.get();
    }

    long failedCalls() {
        return failedCalls.get();
    }

    /** Tasks written so far that have run at least once. */
    int ranDistinct() {
        int n = 0;
        for (int i = 0; i < produced.get(); i++) {
            if (runs.get(i) > 0) {
                n++;
            }
        }
        return n;
    }

    int duplicates() {
        int n = 0;
        for (int i = 0; i < produced.get(); i++) {
            n += Math.max(0, runs.get(i) - 1);
        }
        return n;
    }

    int early() {
        int n = 0;
        for (int i = 0; i < produced.get(); i++) {
            if (runs.get(i) > 0 && firstMicros.get(i) < due[i] * 1000) {
                n++;
            }
        }
        return n;
    }

    /** Lags (µs, sorted) of the tasks due in [fromMillis, toMillis) that ran and pass {@code which} (by index). */
    long[] lagsMicros(long fromMillis, long toMillis, IntPredicate which) {
        long[] out = new long[produced.get()];
        int k = 0;
        for (int i = 0; i < produced.get(); i++) {
            if (due[i] >= fromMillis && due[i] < toMillis && runs.get(i) > 0 && which.test(i)) {
                out[k++] = firstMicros.get(i) - due[i] * 1000;
            }
        }
        long[] lags = Arrays.copyOf(out, k);
        Arrays.sort(lags);
        return lags;
    }

    /** Tasks due in [fromMillis, toMillis) (run or not). */
    int dueIn(long fromMillis, long toMillis) {
        int n = 0;
        for (int i = 0; i < produced.get(); i++) {
            if (due[i] >= fromMillis && due[i] < toMillis) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() throws InterruptedException {
        producing.set(false);
        thread.join(30_000);
    }
}
