package io.delayq.bench.outbox;

import io.delayq.outbox.Outbox;
import io.delayq.task.TaskSpec;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Application threads writing outbox rows as an application does: {@link Outbox#enqueue} once per task (one INSERT
 * each) inside a transaction of {@code perTransaction} tasks, then a commit. Each thread has its own connection.
 */
public final class Producers {
    /** Due an hour out: nothing fires during the run, the due sets only grow. */
    public static final Duration DUE_IN = Duration.ofHours(1);
    public static final String PAYLOAD = "{\"action\":\"cancel-if-unpaid\",\"order\":88120042}";

    private final String jdbcUrl;
    private final Properties credentials;
    private final Outbox outbox;

    public Producers(String jdbcUrl, Properties credentials, String queue) {
        this.jdbcUrl = jdbcUrl;
        this.credentials = credentials;
        this.outbox = Outbox.forQueue(queue);
    }

    public static TaskSpec task(String id) {
        return TaskSpec.of(id).after(DUE_IN).payload(PAYLOAD);
    }

    /** Writes {@code tasks} rows named {@code prefix-n} with {@code threads} threads; returns the wall time in nanoseconds. */
    public long write(String prefix, int tasks, int perTransaction, int threads) throws InterruptedException {
        return write(prefix, tasks, perTransaction, threads, 0);
    }

    /**
     * As {@link #write(String, int, int, int)}, at most {@code tasksPerSecond} tasks a second over all threads (0: as
     * fast as they go); a thread that falls behind its pace does not make up for it in a burst.
     */
    public long write(String prefix, int tasks, int perTransaction, int threads, int tasksPerSecond) throws InterruptedException {
        long every = tasksPerSecond <= 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * perTransaction * threads / tasksPerSecond;
        AtomicLong next = new AtomicLong();
        List<Thread> running = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try (Connection db = DriverManager.getConnection(jdbcUrl, credentials)) {
                    db.setAutoCommit(false);
                    long slot = System.nanoTime();
                    while (true) {
                        if (every > 0) {
                            long wait = slot - System.nanoTime();
                            if (wait > 0) {
                                TimeUnit.NANOSECONDS.sleep(wait);
                            }
                            slot = Math.max(slot + every, System.nanoTime());
                        }
                        long first = next.getAndAdd(perTransaction);
                        if (first >= tasks) {
                            return;
                        }
                        long end = Math.min(tasks, first + perTransaction);
                        for (long n = first; n < end; n++) {
                            outbox.enqueue(db, task(prefix + "-" + n));
                        }
                        db.commit();
                    }
                } catch (SQLException | RuntimeException e) {
                    failures.add(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "producer-" + t);
            thread.start();
            running.add(thread);
        }
        for (Thread thread : running) {
            thread.join();
        }
        long elapsed = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a producer failed: " + failures.get(0), failures.get(0));
        }
        return elapsed;
    }
}
