package io.delayq.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The storage of the classic designs from the seed articles: one sorted set, member = the task
 * (its id, or id|payload), score = due time in epoch ms. Producers ZADD; the consumers differ.
 */
abstract class ClassicZset implements Contender {
    static final String KEY = "classic:due";
    static final int ZADD_CHUNK = 1_000;

    protected final RedisClient client;
    protected final StatefulRedisConnection<String, String> producer;
    private final List<Thread> consumers = new ArrayList<>();
    private final List<StatefulRedisConnection<String, String>> consumerConnections = new ArrayList<>();
    protected volatile boolean running;

    ClassicZset(Workbench bench) {
        this.client = RedisClient.create(bench.redisUrl());
        this.producer = client.connect();
    }

    @Override
    public void enqueueDue(int n, long dueMillis) throws Exception {
        zaddAll(n, null, dueMillis);
    }

    @Override
    public void enqueueWaiting(int n, String payload, long dueMillis) throws Exception {
        zaddAll(n, payload, dueMillis);
    }

    /** Multi-member ZADDs of 1,000, pipelined (8 in flight): the classic design's batch API. */
    private void zaddAll(int n, String payload, long dueMillis) throws Exception {
        Deque<RedisFuture<Long>> inFlight = new ArrayDeque<>();
        for (int from = 0; from < n; from += ZADD_CHUNK) {
            List<ScoredValue<String>> members = new ArrayList<>(ZADD_CHUNK);
            for (int i = from; i < Math.min(n, from + ZADD_CHUNK); i++) {
                String id = TaskIds.id(i);
                members.add(ScoredValue.just(dueMillis, payload == null ? id : id + "|" + payload));
            }
            @SuppressWarnings("unchecked")
            ScoredValue<String>[] array = members.toArray(ScoredValue[]::new);
            inFlight.add(producer.async().zadd(KEY, (Object[]) array));
            if (inFlight.size() >= 8) {
                inFlight.poll().get(60, TimeUnit.SECONDS);
            }
        }
        while (!inFlight.isEmpty()) {
            inFlight.poll().get(60, TimeUnit.SECONDS);
        }
    }

    @Override
    public void enqueueOne(int index, long dueMillis) {
        producer.sync().zadd(KEY, dueMillis, TaskIds.id(index));
    }

    /** Starts {@code count} consumer threads, each with its own connection, running {@code loop}. */
    protected void startThreads(int count, String name, ConsumerLoop loop) {
        running = true;
        for (int i = 0; i < count; i++) {
            StatefulRedisConnection<String, String> c = client.connect();
            consumerConnections.add(c);
            Thread t = new Thread(() -> {
                try {
                    loop.run(c);
                } catch (RuntimeException e) {
                    if (running) {
                        System.err.println(name + " consumer failed: " + e);
                    }
                }
            }, name + "-" + i);
            t.setDaemon(true);
            consumers.add(t);
            t.start();
        }
    }

    /** The 1 s sleep of the seed designs when nothing is due; cut short only by stop. */
    protected void idle() {
        long until = System.nanoTime() + 1_000_000_000L;
        while (running && System.nanoTime() < until) {
            Pause.millis(10);
        }
    }

    interface ConsumerLoop {
        void run(StatefulRedisConnection<String, String> connection);
    }

    @Override
    public void stopConsumers() {
        running = false;
        for (Thread t : consumers) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        consumers.clear();
        consumerConnections.forEach(StatefulRedisConnection::close);
        consumerConnections.clear();
    }

    @Override
    public void close() {
        stopConsumers();
        producer.close();
        client.shutdown();
    }
}
