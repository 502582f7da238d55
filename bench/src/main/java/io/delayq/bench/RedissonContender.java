package io.delayq.bench;

import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RFuture;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Redisson's {@code RDelayedQueue} over an {@code RBlockingQueue}, as its documentation shows it:
 * producers {@code offer(value, delay)}, a transfer task inside the Redisson client moves due
 * elements to the destination list, consumers {@code take()} from it (no acks: at-most-once).
 * Deprecated upstream (Redisson logs an error on every use); its successor, {@code RReliableQueue},
 * is only in the paid edition (the open-source jar throws UnsupportedOperationException).
 */
final class RedissonContender implements Contender {
    static final String NAME = "redisson:bench";
    static final int WINDOW = 1_000;

    private final RedissonClient redisson;
    private final RBlockingQueue<String> destination;
    private final RDelayedQueue<String> delayed;
    private final int consumers;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    RedissonContender(Workbench bench, int consumers) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(bench.redisUrl());
        this.redisson = Redisson.create(config);
        this.destination = redisson.getBlockingQueue(NAME, StringCodec.INSTANCE);
        this.delayed = redisson.getDelayedQueue(destination);
        this.consumers = consumers;
    }

    @Override
    public void enqueueDue(int n, long dueMillis) throws Exception {
        offerAll(n, null, dueMillis);
    }

    @Override
    public void enqueueWaiting(int n, String payload, long dueMillis) throws Exception {
        offerAll(n, payload, dueMillis);
    }

    /** Redisson has no batch offer for the delayed queue: asynchronous offers, 1,000 in flight. */
    private void offerAll(int n, String payload, long dueMillis) throws Exception {
        Deque<RFuture<Void>> inFlight = new ArrayDeque<>();
        for (int i = 0; i < n; i++) {
            String id = TaskIds.id(i);
            long delay = Math.max(0, dueMillis - System.currentTimeMillis());
            inFlight.add(delayed.offerAsync(payload == null ? id : id + "|" + payload, delay, TimeUnit.MILLISECONDS));
            if (inFlight.size() >= WINDOW) {
                inFlight.poll().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
        }
        while (!inFlight.isEmpty()) {
            inFlight.poll().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
    }

    @Override
    public void enqueueOne(int index, long dueMillis) {
        delayed.offer(TaskIds.id(index), Math.max(0, dueMillis - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
    }

    @Override
    public void startConsumers(Recorder recorder) {
        running = true;
        for (int i = 0; i < consumers; i++) {
            Thread t = new Thread(() -> {
                while (running) {
                    try {
                        String v = destination.poll(200, TimeUnit.MILLISECONDS);
                        if (v != null) {
                            recorder.handled(TaskIds.index(v));
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        if (running) {
                            System.err.println("redisson consumer: " + e);
                        }
                    }
                }
            }, "redisson-consumer-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    @Override
    public void stopConsumers() {
        running = false;
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    @Override
    public void close() {
        stopConsumers();
        delayed.destroy();
        redisson.shutdown();
    }
}
