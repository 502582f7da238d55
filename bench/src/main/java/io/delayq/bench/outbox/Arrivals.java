package io.delayq.bench.outbox;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Sees tasks arrive in one due set, independently of whoever put them there: a keyspace notification on the set
 * ({@code notify-keyspace-events Kz}, sent by Redis as the ZADD runs) wakes it, and it then asks Redis which of the
 * ids it waits for are in the set ({@code ZMSCORE}), stamping each found one with the time that answer came back: an
 * upper bound of the moment the task was in Redis, late by at most one round trip. A 2 ms poll stands in for a
 * notification lost or folded. Times are {@link System#nanoTime()} of this JVM, the producers' clock.
 */
public final class Arrivals implements AutoCloseable {
    private static final long POLL_MS = 2;

    private final String dueSet;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> reads;
    private final StatefulRedisPubSubConnection<String, String> events;
    private final Map<String, Long> waiting = new ConcurrentHashMap<>();
    private final List<Long> latencies = new ArrayList<>();
    private final Semaphore wake = new Semaphore(0);
    private final Thread thread;
    private volatile boolean running = true;

    public Arrivals(String redisUrl, String dueSet) {
        this.dueSet = dueSet;
        this.client = RedisClient.create(redisUrl);
        this.reads = client.connect();
        reads.sync().configSet("notify-keyspace-events", "Kz");
        this.events = client.connectPubSub();
        events.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                wake.release();
            }
        });
        events.sync().subscribe("__keyspace@0__:" + dueSet);
        this.thread = new Thread(this::run, "arrivals");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Starts the clock of {@code id}: it counts as arrived when it is seen in the due set. */
    public void expect(String id, long sinceNanos) {
        waiting.put(id, sinceNanos);
    }

    /** Waits until every expected id arrived (or the timeout); the latencies so far in nanoseconds, then cleared. */
    public long[] takeLatencies(long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (!waiting.isEmpty()) {
            throw new IllegalStateException(waiting.size() + " tasks never arrived in " + dueSet + " within " + timeoutMs + " ms");
        }
        synchronized (latencies) {
            long[] out = latencies.stream().mapToLong(Long::longValue).toArray();
            latencies.clear();
            return out;
        }
    }

    private void run() {
        while (running) {
            try {
                wake.tryAcquire(POLL_MS, TimeUnit.MILLISECONDS);
                wake.drainPermits();
                if (waiting.isEmpty()) {
                    continue;
                }
                String[] ids = waiting.keySet().toArray(String[]::new);
                List<Double> scores = reads.sync().zmscore(dueSet, ids);
                long seen = System.nanoTime();
                for (int i = 0; i < ids.length; i++) {
                    if (scores.get(i) != null) {
                        Long since = waiting.remove(ids[i]);
                        if (since != null) {
                            synchronized (latencies) {
                                latencies.add(seen - since);
                            }
                        }
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    System.err.println("arrivals: " + e.getMessage());
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        events.close();
        reads.close();
        client.shutdown();
    }
}
