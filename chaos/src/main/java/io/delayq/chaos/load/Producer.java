package io.delayq.chaos.load;

import io.delayq.client.DelayQueueClient;
import io.delayq.task.EnqueueResult;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Enqueues {@code total} tasks at an even rate over {@code spread}, each due a random delay after
 * it is written, and remembers every task Redis acknowledged (the producer's view of what must run).
 * A failed call (Redis restarting, a master failing over, too few replica acknowledgements) is
 * retried with the same ids until it is answered: duplicates are rejected by id, so a retry of a
 * call that did land answers "duplicate" and changes nothing.
 */
public final class Producer implements AutoCloseable {
    /** A task Redis acknowledged: when it is due, when the acknowledgement came, and whether a retry answered it. */
    public record Acked(long dueAt, long ackedAt, boolean readded) {
    }

    private static final int MAX_BATCH = 200;

    private final DelayQueueClient client;
    private final String prefix;
    private final int total;
    private final Duration spread;
    private final long minDelayMillis;
    private final long maxDelayMillis;
    private final IntFunction<String> payload;
    private final Map<String, Acked> acked = new ConcurrentHashMap<>();
    private final FailureCounts failures = new FailureCounts();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Throwable crashed;

    public Producer(DelayQueueClient client, String prefix, int total, Duration spread, Duration minDelay, Duration maxDelay,
                    IntFunction<String> payload) {
        this.client = client;
        this.prefix = prefix;
        this.total = total;
        this.spread = spread;
        this.minDelayMillis = minDelay.toMillis();
        this.maxDelayMillis = maxDelay.toMillis();
        this.payload = payload;
        this.thread = new Thread(this::run, "chaos-producer-" + prefix);
        this.thread.setDaemon(true);
    }

    public Producer start() {
        thread.start();
        return this;
    }

    private void run() {
        try {
            long t0 = System.nanoTime();
            int sent = 0;
            while (sent < total && !stopped) {
                double elapsed = (System.nanoTime() - t0) / 1e9;
                int owed = (int) Math.min(total, Math.ceil(total * elapsed / Math.max(0.001, spread.toMillis() / 1000.0))) - sent;
                if (owed <= 0) {
                    TimeUnit.MILLISECONDS.sleep(10); // pacing: the schedule, not a wait on a condition
                    continue;
                }
                int n = Math.min(owed, MAX_BATCH);
                List<TaskSpec> batch = new ArrayList<>(n);
                long now = System.currentTimeMillis();
                for (int i = 0; i < n; i++) {
                    long delay = ThreadLocalRandom.current().nextLong(minDelayMillis, maxDelayMillis + 1);
                    // an absolute due time: the producer knows it whatever the answer (or lack of one) says
                    batch.add(TaskSpec.of(prefix + (sent + i)).at(Instant.ofEpochMilli(now + delay)).payload(payload.apply(sent + i)));
                }
                send(batch);
                sent += n;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            crashed = t;
        }
    }

    private void send(List<TaskSpec> batch) throws InterruptedException {
        boolean retried = false;
        while (!stopped) {
            try {
                List<EnqueueResult> results = client.enqueueAll(batch);
                long at = System.currentTimeMillis();
                for (int i = 0; i < batch.size(); i++) {
                    TaskSpec spec = batch.get(i);
                    long due = spec.schedule().millis();
                    acked.put(spec.id(), new Acked(due, at, retried && results.get(i).added()));
                }
                return;
            } catch (RuntimeException e) {
                failures.count(e);
                retried = true;
                TimeUnit.MILLISECONDS.sleep(100); // back off before the retry of the same ids
            }
        }
    }

    /** Blocks until every task was acknowledged (or the producer stopped); false on timeout. */
    public boolean awaitDone(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        if (crashed != null) {
            throw new IllegalStateException("producer crashed: " + crashed, crashed);
        }
        return !thread.isAlive();
    }

    public Map<String, Acked> acked() {
        return acked;
    }

    /** Failed enqueue calls by exception type (each was retried). */
    public Map<String, Long> failures() {
        return failures.snapshot();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(10_000);
    }
}
