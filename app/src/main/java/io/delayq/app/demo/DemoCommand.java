package io.delayq.app.demo;

import io.delayq.app.local.FreePort;
import io.delayq.app.local.LocalRedis;
import io.delayq.backlog.QueueStats;
import io.delayq.client.DelayQueueClient;
import io.delayq.lifecycle.StopSignal;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code delayq demo [--once]}: a worker for a sample queue with a visible handler, fed with sample
 * orders ("cancel if unpaid" a few seconds from now, some failing and retrying, one dead-lettered).
 * Uses REDIS_URL (or DELAYQ_REDIS_URL) when set, otherwise starts a real local redis-server.
 * {@code --once} exits when the first round of orders is settled (for tests and CI).
 */
public final class DemoCommand {
    static final int MAX_ATTEMPTS = 3;
    static final String QUEUE = "demo-orders";
    static final int SHARDS = 4;

    private DemoCommand() {
    }

    public static int run(String[] args, Map<String, String> env) {
        boolean once = List.of(args).contains("--once");
        PrintStream out = System.out;
        Set<String> settled = ConcurrentHashMap.newKeySet();
        CountDownLatch firstRound = new CountDownLatch(1);
        List<TaskSpec> round = sampleOrders(0);
        DemoHandler handler = new DemoHandler(out, id -> {
            settled.add(id);
            if (round.stream().allMatch(t -> settled.contains(t.id()))) {
                firstRound.countDown();
            }
        });
        try (LocalRedis redis = LocalRedis.fromEnv(env, out);
             DelayQueueClient client = DelayQueueClient.builder().redis(redis.url()).queue(QUEUE).shards(SHARDS).build()) {
            WorkerConfig config = WorkerConfig.fromEnv(workerEnv(redis.url()));
            Worker worker = Worker.start(config, connection -> new HandlerDelivery(handler));
            out.println("Worker running for queue '" + QUEUE + "' (" + SHARDS + " shards). Metrics: http://localhost:" + worker.httpPort()
                    + "/metrics  health: /healthz  /readyz");
            schedule(client, round, out);
            StopSignal stop = StopSignal.install();
            if (once) {
                boolean done = firstRound.await(60, TimeUnit.SECONDS) && drained(client);
                printStats(client, out);
                worker.shutdown(Duration.ofSeconds(5));
                return done ? 0 : 1;
            }
            int n = 1;
            while (!stop.await(Duration.ofSeconds(20))) {
                printStats(client, out);
                schedule(client, sampleOrders(n++), out);
            }
            out.println("Stopping (Ctrl-C): finishing in-flight tasks…");
            worker.shutdown(Duration.ofSeconds(10));
            printStats(client, out);
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** A worker for the sample queue: quick retries so that the demo shows a retry and a dead letter within seconds. */
    static Map<String, String> workerEnv(String url) {
        Map<String, String> cfg = new HashMap<>();
        cfg.put(WorkerSettings.REDIS_URL.name(), url);
        cfg.put(WorkerSettings.QUEUE.name(), QUEUE);
        cfg.put(WorkerSettings.SHARDS.name(), String.valueOf(SHARDS));
        cfg.put(WorkerSettings.CONCURRENCY.name(), "8");
        cfg.put(WorkerSettings.RETRY_MAX_ATTEMPTS.name(), String.valueOf(MAX_ATTEMPTS));
        cfg.put(WorkerSettings.RETRY_BACKOFF_INITIAL.name(), "1s");
        cfg.put(WorkerSettings.RETRY_BACKOFF_MAX.name(), "4s");
        cfg.put(WorkerSettings.POLL_INTERVAL.name(), "5s");
        // completion records: 'delayq inspect' of a fired order answers when it succeeded and what the handler did
        cfg.put(WorkerSettings.RESULTS_KEEP.name(), "1h");
        cfg.put(WorkerSettings.HTTP_PORT.name(), String.valueOf(FreePort.preferredOrAny(8080)));
        return cfg;
    }

    static List<TaskSpec> sampleOrders(int round) {
        List<TaskSpec> orders = new ArrayList<>();
        String p = "r" + round + "-";
        for (int i = 1; i <= 6; i++) {
            orders.add(TaskSpec.of("order-" + p + (1000 + i)).after(Duration.ofMillis(1500L * i))
                    .payload("{\"action\":\"cancel-if-unpaid\",\"order\":" + (1000 + i) + "}"));
        }
        orders.add(TaskSpec.of("order-" + p + "2001").after(Duration.ofSeconds(3))
                .payload("{\"action\":\"cancel-if-unpaid\",\"via\":\"payment-gateway\"}"));
        orders.add(TaskSpec.of("order-" + p + "3001").after(Duration.ofSeconds(4))
                .payload("{\"action\":\"cancel-if-unpaid\",\"note\":\"corrupt\"}"));
        orders.add(TaskSpec.of("order-" + p + "4001").after(Duration.ofSeconds(5)).priority(2)
                .payload("{\"action\":\"cancel-if-unpaid\",\"note\":\"unknown-order\"}"));
        return orders;
    }

    private static void schedule(DelayQueueClient client, List<TaskSpec> orders, PrintStream out) {
        client.enqueueAll(orders);
        out.println("Scheduled " + orders.size() + " orders due in 1.5–9 s (one will retry twice, two will be dead-lettered)");
    }

    /** The last outcomes reach Redis a moment after the handler returns: wait for them (at most 10 s). */
    private static boolean drained(DelayQueueClient client) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            QueueStats s = client.stats();
            if (s.scheduled() + s.due() + s.inflight() == 0) {
                return true;
            }
            Thread.sleep(100);
        }
        return false;
    }

    private static void printStats(DelayQueueClient client, PrintStream out) {
        QueueStats s = client.stats();
        out.printf("queue %s: scheduled %d, due %d, in flight %d, dead %d%n", s.queue(), s.scheduled(), s.due(), s.inflight(), s.dead());
    }
}
