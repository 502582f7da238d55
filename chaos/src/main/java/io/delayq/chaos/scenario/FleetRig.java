package io.delayq.chaos.scenario;

import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.fleet.WorkerFleet;
import io.delayq.chaos.load.Producer;
import io.delayq.client.DelayQueueClient;
import io.delayq.redis.Replies;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * What every fleet scenario sets up on the Redis it started, before its faults: its output folder and queue, an admin
 * and a producer client of the queue, a ready fleet of packaged workers, the event list of the report; then the load
 * (from which the run's clock counts) and, at the end, the drain. Closing it stops the fleet and closes the clients;
 * the Redis stays the scenario's, closed after this.
 */
final class FleetRig implements AutoCloseable {
    private final ChaosContext ctx;
    private final String key;
    private final Path dir;
    private final String queue;
    private final int shards;
    private final List<String> events = new ArrayList<>();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private DelayQueueClient admin;
    private DelayQueueClient producerClient;
    private WorkerFleet fleet;
    private long t0;
    private double loadAtStart;

    private FleetRig(ChaosContext ctx, String key, int shards) throws IOException {
        this.ctx = ctx;
        this.key = key;
        this.dir = ctx.dirFor(key);
        this.queue = "chaos-" + key.replaceAll("[^a-z0-9-]", "-");
        this.shards = shards;
    }

    /**
     * As {@link #start}, the queue recorded as {@code protocol} (2 or 3) by the rig's first client (the switch
     * {@code delayq.protocol}, set only while the rig is built: the workers, the producer and the mover follow the meta,
     * and the scenarios after this one create their queues on the default protocol).
     */
    static FleetRig startOn(int protocol, ChaosContext ctx, String key, String redisUrl, int shards, Duration lease, int workers)
            throws Exception {
        System.setProperty("delayq.protocol", String.valueOf(protocol));
        try {
            return start(ctx, key, redisUrl, shards, lease, workers, UnaryOperator.identity());
        } finally {
            System.clearProperty("delayq.protocol");
        }
    }

    /**
     * @param producerOptions what the producer's client adds to the common ones (a replica acknowledgement), or
     *                        {@link UnaryOperator#identity()}
     */
    static FleetRig start(ChaosContext ctx, String key, String redisUrl, int shards, Duration lease, int workers,
                          UnaryOperator<DelayQueueClient.Builder> producerOptions) throws Exception {
        FleetRig rig = new FleetRig(ctx, key, shards);
        try {
            rig.admin = rig.open(rig.client(redisUrl).build());
            rig.producerClient = rig.open(producerOptions.apply(rig.client(redisUrl)).build());
            rig.fleet = rig.open(QueueSupport.startFleet(ctx, rig.dir, redisUrl, rig.queue, shards, lease, workers));
            return rig;
        } catch (Exception | Error e) {
            try {
                rig.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private <T extends AutoCloseable> T open(T resource) {
        opened.add(resource);
        return resource;
    }

    /** A further client of the queue on {@code redisUrl}, with the common options; the caller closes it. */
    DelayQueueClient.Builder client(String redisUrl) {
        return QueueSupport.client(redisUrl, queue, shards);
    }

    /** Starts the producer's load and the run's clock; the machine's load average is read first. */
    Producer startLoad(String idPrefix, int tasks, Duration spread, Duration minDelay, Duration maxDelay, IntFunction<String> payload) {
        loadAtStart = QueueSupport.loadAverage();
        t0 = System.nanoTime();
        return new Producer(producerClient, idPrefix, tasks, spread, minDelay, maxDelay, payload).start();
    }

    /** Waits until Redis acknowledged every task of the load (fails the run after the load time + 5 min). */
    void awaitLoadAcknowledged(Producer producer, Duration load) throws InterruptedException {
        QueueSupport.awaitProduced(producer, load);
        ctx.log("%s: all %,d produced tasks acknowledged by Redis; waiting for the queue to drain", key, producer.acked().size());
    }

    /** The admin client (stats, the drain) reads the queue's protocol again: after an upgrade in place, it reads 3's keys. */
    void followUpgrade() {
        Replies.await(admin.protocol().refreshProtocol(), Duration.ofSeconds(5));
    }

    /** Waits for the queue to drain and stops the fleet gracefully: the figures the report is made from. */
    QueueSupport.Drained drainAndStop() throws InterruptedException {
        return QueueSupport.drainAndStop(admin, fleet, t0);
    }

    /** A line of the report's events, logged as it happens. */
    void event(String line) {
        events.add(line);
        ctx.log("%s: %s", key, line);
    }

    /** {@code t=12.3 s}: the time since the load started. */
    String sinceStart() {
        return "t=" + QueueSupport.secs((System.nanoTime() - t0) / 1_000_000);
    }

    Path dir() {
        return dir;
    }

    String queue() {
        return queue;
    }

    DelayQueueClient admin() {
        return admin;
    }

    DelayQueueClient producerClient() {
        return producerClient;
    }

    WorkerFleet fleet() {
        return fleet;
    }

    List<String> events() {
        return events;
    }

    /** System.nanoTime() when the load started. */
    long t0() {
        return t0;
    }

    double loadAtStart() {
        return loadAtStart;
    }

    /** The fleet first, then the clients, as the scenarios' try-with-resources closed them. */
    @Override
    public void close() throws Exception {
        Exception first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
