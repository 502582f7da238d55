package io.delayq.chaos.scenario;

import io.delayq.backlog.QueueStats;
import io.delayq.chaos.Waits;
import io.delayq.client.DelayQueueClient;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Helpers the scenarios share: the workers' environment and "has the queue drained". */
final class QueueSupport {
    private QueueSupport() {
    }

    static Map<String, String> workerEnv(String redisUrl, String queue, int shards, Duration lease) {
        Map<String, String> env = new HashMap<>();
        env.put("DELAYQ_REDIS_URL", redisUrl);
        env.put("DELAYQ_QUEUE", queue);
        env.put("DELAYQ_SHARDS", String.valueOf(shards));
        env.put("DELAYQ_DELIVERY", "handler");
        env.put("DELAYQ_HANDLER", "io.delayq.chaos.recorder.RecordingHandler");
        env.put("DELAYQ_LEASE", lease.toMillis() + "ms");
        env.put("DELAYQ_POLL_INTERVAL", "500ms");
        env.put("DELAYQ_CONCURRENCY", "16");
        env.put("DELAYQ_BATCH_SIZE", "100");
        env.put("DELAYQ_SHUTDOWN_GRACE", "10s");
        // a task that keeps losing its worker must not be dead-lettered in a chaos run: the run counts executions
        env.put("DELAYQ_RETRY_MAX_ATTEMPTS", "20");
        return env;
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
