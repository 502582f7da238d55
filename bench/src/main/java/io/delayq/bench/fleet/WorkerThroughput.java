package io.delayq.bench.fleet;

import io.delayq.client.DelayQueueClient;
import io.delayq.settings.WorkerEnv;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one real worker fires per second: an in-process worker (default settings, a handler that does nothing) drains
 * a backlog already due on a real Redis; tasks/s from the first claim to the last task handed to the handler. A
 * smaller drain first, unrecorded, warms the JIT compiler.
 */
public final class WorkerThroughput {
    private static final String QUEUE = "fleet-throughput";
    private static final long DRAIN_TIMEOUT_NANOS = 120_000_000_000L;

    private final String redisUrl;
    private final int shards;

    public WorkerThroughput(String redisUrl, int shards) {
        this.redisUrl = redisUrl;
        this.shards = shards;
    }

    /** Tasks per second of a drain of {@code tasks}, after a warm-up drain of {@code warmup}. */
    public double measure(int warmup, int tasks) {
        drain(QUEUE + "-warmup", warmup);
        return drain(QUEUE, tasks);
    }

    private double drain(String queue, int tasks) {
        try (DelayQueueClient client = DelayQueueClient.builder().redis(redisUrl).queue(queue).shards(shards).build()) {
            List<TaskSpec> chunk = new ArrayList<>(1000);
            for (int i = 0; i < tasks; i++) {
                chunk.add(TaskSpec.of("t-" + i).payload("p"));
                if (chunk.size() == 1000 || i == tasks - 1) {
                    client.enqueueAll(chunk);
                    chunk.clear();
                }
            }
        }
        AtomicLong handled = new AtomicLong();
        WorkerConfig config = WorkerConfig.embedded(WorkerEnv.of(redisUrl, queue, shards).toMap());
        long t0 = System.nanoTime();
        Worker worker = Worker.startEmbedded(config, task -> handled.incrementAndGet());
        try {
            while (handled.get() < tasks) {
                if (System.nanoTime() - t0 > DRAIN_TIMEOUT_NANOS) {
                    throw new IllegalStateException("worker fired " + handled.get() + " of " + tasks + " tasks within 2 min");
                }
                sleep(5);
            }
            return tasks / ((System.nanoTime() - t0) / 1e9);
        } finally {
            worker.close();
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
