package io.delayq.bench.fleet;

import io.delayq.handler.TaskHandler;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Real in-process workers standing in for a Deployment's pods: one asked for now starts its worker a start-up delay
 * later; scaling down stops the most recently asked-for first (one still starting is simply not started). A pod is
 * paid for from being asked for to being stopped.
 */
final class LivePods implements AutoCloseable {
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final WorkerConfig config;
    private final TaskHandler handler;
    private final long startupMs;
    private final ScheduledExecutorService starter = Executors.newScheduledThreadPool(4);
    private final ExecutorService stopper = Executors.newCachedThreadPool();
    private final List<Pod> pods = new ArrayList<>();
    private final List<Pod> gone = new ArrayList<>();
    private int peak;

    private static final class Pod {
        final long askedAt;
        long stoppedAt = -1;
        volatile Worker worker;
        ScheduledFuture<?> start;

        Pod(long askedAt) {
            this.askedAt = askedAt;
        }
    }

    LivePods(WorkerConfig config, TaskHandler handler, long startupMs) {
        this.config = config;
        this.handler = handler;
        this.startupMs = startupMs;
    }

    synchronized void scaleTo(int replicas, long now) {
        while (pods.size() < replicas) {
            Pod pod = new Pod(now);
            pod.start = starter.schedule(() -> {
                pod.worker = Worker.startEmbedded(config, handler);
            }, startupMs, TimeUnit.MILLISECONDS);
            pods.add(pod);
        }
        while (pods.size() > replicas) {
            stop(pods.remove(pods.size() - 1), now);
        }
        peak = Math.max(peak, replicas);
    }

    private void stop(Pod pod, long now) {
        pod.stoppedAt = now;
        gone.add(pod);
        if (pod.start.cancel(false)) {
            return;
        }
        stopper.execute(() -> {
            try {
                pod.start.get();
            } catch (Exception e) {
                throw new IllegalStateException("a worker did not start", e);
            }
            pod.worker.shutdown(GRACE);
        });
    }

    /** Replica-seconds within [from, to): every pod from being asked for to being stopped. */
    synchronized double replicaSeconds(long from, long to) {
        double ms = 0;
        for (List<Pod> list : List.of(pods, gone)) {
            for (Pod p : list) {
                long end = p.stoppedAt < 0 ? to : Math.min(to, p.stoppedAt);
                ms += Math.max(0, end - Math.max(from, p.askedAt));
            }
        }
        return ms / 1000.0;
    }

    synchronized int peak() {
        return peak;
    }

    @Override
    public synchronized void close() {
        long now = System.currentTimeMillis();
        while (!pods.isEmpty()) {
            stop(pods.remove(pods.size() - 1), now);
        }
        stopper.shutdown();
        try {
            if (!stopper.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("workers did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        starter.shutdownNow();
    }
}
