package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.ChaosContext;
import io.delayq.chaos.Waits;
import io.delayq.chaos.fleet.WorkerFleet;
import io.delayq.chaos.load.Producer;
import io.delayq.chaos.recorder.Execution;
import io.delayq.chaos.recorder.ExecutionLog;
import io.delayq.chaos.recorder.DeliveryRecorder;
import io.delayq.client.DelayQueueClient;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Helpers the scenarios share: clients, the worker fleet, "has the queue drained", and the report's common lines. */
final class QueueSupport {
    private QueueSupport() {
    }

    static Map<String, String> workerEnv(String redisUrl, String queue, int shards, Duration lease) {
        return WorkerEnv.of(redisUrl, queue, shards)
                .set(WorkerSettings.DELIVERY, "handler")
                .set(WorkerSettings.HANDLER, DeliveryRecorder.class.getName())
                .set(WorkerSettings.LEASE, lease)
                .set(WorkerSettings.POLL_INTERVAL, Duration.ofMillis(500))
                .set(WorkerSettings.CONCURRENCY, 16)
                .set(WorkerSettings.BATCH_SIZE, 100)
                .set(WorkerSettings.SHUTDOWN_GRACE, Duration.ofSeconds(10))
                // a task that keeps losing its worker must not be dead-lettered in a chaos run: the run counts executions
                .set(WorkerSettings.RETRY_MAX_ATTEMPTS, 20)
                .toMap();
    }

    /** A client of the scenario's queue with a 5 s command timeout (the caller may add more before build()). */
    static DelayQueueClient.Builder client(String redisUrl, String queue, int shards) {
        return DelayQueueClient.builder().redis(redisUrl).queue(queue).shards(shards).timeout(Duration.ofSeconds(5));
    }

    /** {@code workers} packaged worker processes on the queue, started and ready; closed again if they are not. */
    static WorkerFleet startFleet(ChaosContext ctx, Path dir, String redisUrl, String queue, int shards, Duration lease, int workers)
            throws IOException, InterruptedException {
        WorkerFleet fleet = new WorkerFleet(ctx.binaries(), workerEnv(redisUrl, queue, shards, lease), dir, workers);
        try {
            fleet.startAllAndAwaitReady(Duration.ofSeconds(90));
            return fleet;
        } catch (Exception | Error e) {
            try {
                fleet.close();
            } catch (InterruptedException | RuntimeException suppressed) {
                if (suppressed instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Fails the run when the producer has not had every task acknowledged within the load time + 5 min. */
    static void awaitProduced(Producer producer, Duration load) throws InterruptedException {
        if (!producer.awaitDone(load.plusMinutes(5))) {
            throw new IllegalStateException("the producer did not finish within the load time + 5 min");
        }
    }

    /** What is left once the queue drained and the fleet stopped: the figures every scenario reports from. */
    record Drained(QueueStats end, long totalMillis, List<Integer> exits, List<Execution> executions) {
    }

    /**
     * Waits (up to 5 min) for the queue to drain, stops the fleet gracefully and reads every worker's
     * execution records; {@code totalMillis} runs from {@code t0} (System.nanoTime) to the drain.
     */
    static Drained drainAndStop(DelayQueueClient admin, WorkerFleet fleet, long t0) throws InterruptedException {
        QueueStats end = awaitDrained(admin, Duration.ofMinutes(5));
        long total = (System.nanoTime() - t0) / 1_000_000;
        List<Integer> exits = fleet.terminateAll();
        return new Drained(end, total, exits, ExecutionLog.read(fleet.recordFiles()));
    }

    static String enqueueFailures(Producer producer) {
        return producer.failures().isEmpty() ? "0" : producer.failures().toString();
    }

    /** The lines that close every scenario's details: how the workers exited and how busy the machine was. */
    static void putClosingDetails(Map<String, String> details, List<Integer> exits, double loadAtStart) {
        details.put("graceful exit codes at the end", exits.toString());

        details.put("machine load average (1 min)", loads(loadAtStart, loadAverage()));
    }

    /**
     * Waits until nothing is scheduled, due or in flight (every acknowledged task was acked by a
     * worker, so its execution record exists); answers the last stats read.
     */
    static QueueStats awaitDrained(DelayQueueClient admin, Duration timeout) throws InterruptedException {
        AtomicReference<QueueStats> last = new AtomicReference<>();
        Waits.require(timeout, "the queue to drain (nothing scheduled, due or in flight)", () -> {
            try {
                QueueStats s = admin.stats();
                last.set(s);
                return s.scheduled() + s.due() + s.inflight() == 0;
            } catch (RuntimeException e) {
                return false; // Redis restarting or failing over: ask again
            }
        });
        return last.get();
    }

    /** The machine's 1-minute load average: other work on the machine slows the fleet and shows in the lag. */
    static double loadAverage() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static String loads(double atStart, double atEnd) {
        return String.format("%.1f at the start, %.1f at the end (%d cores)", atStart, atEnd, Runtime.getRuntime().availableProcessors());
    }

    static String ms(long millis) {
        return String.format("%,d ms", millis);
    }

    static String secs(long millis) {
        return String.format("%.1f s", millis / 1000.0);
    }
}
