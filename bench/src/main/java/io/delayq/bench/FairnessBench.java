package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.worker.config.WorkerConfig;
import io.delayq.worker.delivery.HandlerDelivery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fairness between tenants (docs/protocol.md "Groups"): a quiet tenant enqueues 100 tasks/s, each due at
 * once, while a noisy tenant's 100,000 tasks all come due at the same instant. One worker (4 shards, a
 * batch of 100, DELAYQ_CONCURRENCY=16, a handler that works ~1 ms per task: a fast webhook or database call) drains
 * them. Two variants, interleaved round by round on one Redis: without groups (both tenants ungrouped, one due set
 * per shard) and with groups (each tenant its group key). Figure: the lag (handler start - due time) of the quiet
 * tenant's tasks that came due while the burst was being drained, p50 / p99 / max, beside the burst's drain time.
 * Prints the table; {@code --doc FILE} also writes it as a Markdown page. No pass or fail. Usage:
 * <pre>
 *   bench/fairness.sh [--burst 100000] [--rounds 2] [--doc docs/bench-fairness.md]
 * </pre>
 */
public final class FairnessBench {
    private static final String QUEUE = "tenants";
    private static final int SHARDS = 4;
    private static final int QUIET_PER_SECOND = 100;
    private static final long LEAD_MS = 4_000;     // enqueue the burst, start the quiet tenant, then the burst comes due
    /** DELAYQ_BATCH_SIZE of every worker here: the default unless --batch says otherwise. */
    private static int batch;

    enum Variant { WITHOUT_GROUPS, WITH_GROUPS }

    record Result(Variant variant, int round, long burstDrainMs, int quietDuringBurst, long p50, long p99, long max, long quietBeforeP99) {
    }

    /** Two tenants' bursts due at one instant: when each drained, and the paying tenant's part of the first half fired. */
    record WeightResult(String weights, int round, long payingDrainMs, long trialDrainMs, double payingShareOfFirstHalf) {
    }

    /**
     * Many groups' tasks due at one instant under DELAYQ_GROUP_MAX_RUNNING: when they drained, the rate beside what the
     * slots or the caps allow at most, and the most tasks of one group the handler saw running at once.
     */
    record CapResult(int cap, int groups, int round, int tasks, long drainMs, double ceilingPerSecond, int mostOfOneGroup) {
        double perSecond() {
            return tasks * 1000.0 / Math.max(1, drainMs);
        }
    }

    /** The cap scenarios: {cap, groups}; cap 0 = none (the baseline). */
    private static final int[][] CAP_RUNS = {{0, 20}, {1, 20}, {2, 4}};
    private static final int CAP_HANDLER_MS = 5;

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int burst = 100_000;
        int rounds = 2;
        Path doc = null;
        batch = WorkerSettings.DEFAULT_BATCH_SIZE;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--burst" -> burst = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--doc" -> doc = Path.of(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (see io.delayq.bench.FairnessBench)");
            }
        }
        String setup = String.format("%,d noisy tasks due at one instant, a quiet tenant at %d tasks/s; one worker (%d shards, batch %d, "
                        + "concurrency 16, ~1 ms handler); %d round(s) of each variant, interleaved; %d cores, load %s, Java %s",
                burst, QUIET_PER_SECOND, SHARDS, batch, rounds, Runtime.getRuntime().availableProcessors(), MeasuredOn.loadAverage(),
                System.getProperty("java.version"));
        System.out.println("fairness: " + setup);
        List<Result> results = new ArrayList<>();
        List<WeightResult> weighted = new ArrayList<>();
        List<CapResult> capped = new ArrayList<>();
        String redisVersion;
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no")) {
            redisVersion = server.origin();
            System.out.println("redis: " + redisVersion);
            run(server.url(), Variant.WITH_GROUPS, Math.min(burst, 10_000), 0); // warm-up (JIT, connections), not counted
            for (int r = 1; r <= rounds; r++) {
                for (Variant v : Variant.values()) {
                    Result res = run(server.url(), v, burst, r);
                    results.add(res);
                    System.out.printf("round %d  %-15s burst drained in %,6d ms; quiet tasks due meanwhile %,5d: lag p50 %,6d ms  p99 %,6d ms  max %,6d ms"
                                    + "  (before the burst: p99 %d ms)%n", r, label(v), res.burstDrainMs(), res.quietDuringBurst(), res.p50(), res.p99(),
                            res.max(), res.quietBeforeP99());
                }
                for (String weights : new String[] {"", "paying=3"}) {
                    WeightResult res = runWeights(server.url(), weights, burst, r);
                    weighted.add(res);
                    System.out.printf("round %d  weights %-9s paying drained in %,6d ms, trial in %,6d ms; paying's part of the first half %.2f%n",
                            r, weights.isEmpty() ? "equal" : weights, res.payingDrainMs(), res.trialDrainMs(), res.payingShareOfFirstHalf());
                }
                for (int[] run : CAP_RUNS) {
                    CapResult res = runCaps(server.url(), run[0], run[1], burst / 10, r);
                    capped.add(res);
                    System.out.printf("round %d  max running %d, %d groups: %,d tasks drained in %,6d ms (%,.0f/s, ceiling %,.0f/s); most of one group at once %d%n",
                            r, res.cap(), res.groups(), res.tasks(), res.drainMs(), res.perSecond(), res.ceilingPerSecond(), res.mostOfOneGroup());
                }
            }
        }
        String table = table(results) + "\n" + weightTable(weighted) + "\n" + capTable(capped);
        System.out.println();
        System.out.print(table);
        if (doc != null) {
            write(doc, setup, redisVersion, table);
            System.out.println("wrote " + doc);
        }
    }

    private static String label(Variant v) {
        return v == Variant.WITH_GROUPS ? "with groups" : "without groups";
    }

    private static Result run(String url, Variant variant, int burst, int round) throws Exception {
        try (RedisProbe probe = new RedisProbe(url)) {
            probe.flushAll(); // a fresh queue per run
        }
        boolean grouped = variant == Variant.WITH_GROUPS;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(url).queue(QUEUE).shards(SHARDS).build()) {
            Map<String, String> env = WorkerEnv.of(url, QUEUE, SHARDS).set(WorkerSettings.BATCH_SIZE, batch).set(WorkerSettings.CONCURRENCY, 16).set(WorkerSettings.HTTP_PORT, 0)
                    .set(WorkerSettings.SCHEDULE_INTERVAL, Duration.ZERO).toMap();
            ConcurrentLinkedQueue<long[]> quiet = new ConcurrentLinkedQueue<>(); // {due, started}
            AtomicLong noisyDone = new AtomicLong();
            AtomicLong lastNoisy = new AtomicLong();
            Worker w = Worker.start(WorkerConfig.fromEnv(env), r -> new HandlerDelivery(task -> {
                long started = System.currentTimeMillis();
                if (task.id().startsWith("q")) {
                    quiet.add(new long[] {task.dueAt(), started});
                }
                Thread.sleep(1);
                if (task.id().startsWith("n")) {
                    noisyDone.incrementAndGet();
                    lastNoisy.accumulateAndGet(System.currentTimeMillis(), Math::max);
                }
            }));
            try {
                long burstDue = System.currentTimeMillis() + LEAD_MS;
                enqueueInChunks(client, burst, i -> {
                    TaskSpec t = TaskSpec.of("n-" + i).at(Instant.ofEpochMilli(burstDue)).payload("noisy");
                    return grouped ? t.group("noisy") : t;
                });
                if (System.currentTimeMillis() > burstDue - 1_000) {
                    throw new IllegalStateException("enqueueing the burst took longer than the lead time " + LEAD_MS + " ms");
                }
                AtomicBoolean producing = new AtomicBoolean(true);
                Thread producer = new Thread(() -> {
                    long next = System.nanoTime();
                    for (int i = 0; producing.get(); i++) {
                        TaskSpec t = TaskSpec.of("q-" + i).payload("quiet");
                        client.enqueue(grouped ? t.group("quiet") : t);
                        next += 1_000_000_000L / QUIET_PER_SECOND;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            try {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    }
                }, "quiet-tenant");
                producer.start();
                while (noisyDone.get() < burst) {
                    Thread.sleep(5);
                }
                long drained = lastNoisy.get();
                Thread.sleep(1_000);
                producing.set(false);
                producer.join();
                List<Long> during = new ArrayList<>();
                List<Long> before = new ArrayList<>();
                for (long[] q : quiet) {
                    if (q[0] >= burstDue && q[0] <= drained) {
                        during.add(q[1] - q[0]);
                    } else if (q[0] < burstDue) {
                        before.add(q[1] - q[0]);
                    }
                }
                during.sort(Long::compare);
                before.sort(Long::compare);
                return new Result(variant, round, drained - burstDue, during.size(), pct(during, 0.50), pct(during, 0.99),
                        during.isEmpty() ? -1 : during.get(during.size() - 1), pct(before, 0.99));
            } finally {
                w.close();
            }
        }
    }

    /**
     * Two tenants, paying and trial, each with half of {@code burst} due at one instant, with the given
     * DELAYQ_GROUP_WEIGHTS: equal weights drain them side by side; paying=3 gives paying three tasks of each claim for
     * one of trial's, so paying drains first and trial is never starved.
     */
    private static WeightResult runWeights(String url, String weights, int burst, int round) throws Exception {
        try (RedisProbe probe = new RedisProbe(url)) {
            probe.flushAll();
        }
        int half = burst / 2;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(url).queue(QUEUE).shards(SHARDS).build()) {
            WorkerEnv settings = WorkerEnv.of(url, QUEUE, SHARDS).set(WorkerSettings.BATCH_SIZE, batch).set(WorkerSettings.CONCURRENCY, 16).set(WorkerSettings.HTTP_PORT, 0)
                    .set(WorkerSettings.SCHEDULE_INTERVAL, Duration.ZERO);
            if (!weights.isEmpty()) {
                settings = settings.set(WorkerSettings.GROUP_WEIGHTS, weights);
            }
            AtomicLong fired = new AtomicLong();
            AtomicLong payingInFirstHalf = new AtomicLong();
            AtomicLong payingDone = new AtomicLong();
            AtomicLong trialDone = new AtomicLong();
            AtomicLong payingLast = new AtomicLong();
            AtomicLong trialLast = new AtomicLong();
            Worker w = Worker.start(WorkerConfig.fromEnv(settings.toMap()), r -> new HandlerDelivery(task -> {
                boolean paying = task.id().startsWith("p");
                if (fired.incrementAndGet() <= half && paying) {
                    payingInFirstHalf.incrementAndGet();
                }
                Thread.sleep(1);
                (paying ? payingDone : trialDone).incrementAndGet();
                (paying ? payingLast : trialLast).accumulateAndGet(System.currentTimeMillis(), Math::max);
            }));
            try {
                long due = System.currentTimeMillis() + LEAD_MS;
                enqueueInChunks(client, 2 * half, i -> {
                    boolean paying = i % 2 == 0;
                    return TaskSpec.of((paying ? "p-" : "t-") + i).at(Instant.ofEpochMilli(due)).payload("x").group(paying ? "paying" : "trial");
                });
                if (System.currentTimeMillis() > due - 1_000) {
                    throw new IllegalStateException("enqueueing the bursts took longer than the lead time " + LEAD_MS + " ms");
                }
                while (payingDone.get() + trialDone.get() < 2L * half) {
                    Thread.sleep(5);
                }
                return new WeightResult(weights.isEmpty() ? "equal (none set)" : weights, round, payingLast.get() - due, trialLast.get() - due,
                        (double) payingInFirstHalf.get() / half);
            } finally {
                w.close();
            }
        }
    }

    /**
     * {@code tasks} spread over {@code groups} groups, all due at one instant, a handler of {@link #CAP_HANDLER_MS} ms,
     * DELAYQ_GROUP_MAX_RUNNING = {@code cap} (0: none): the drain time, and the most tasks of one group running at once as
     * the handler counts them.
     */
    private static CapResult runCaps(String url, int cap, int groups, int tasks, int round) throws Exception {
        try (RedisProbe probe = new RedisProbe(url)) {
            probe.flushAll();
        }
        int concurrency = 16;
        try (DelayQueueClient client = DelayQueueClient.builder().redis(url).queue(QUEUE).shards(SHARDS).build()) {
            WorkerEnv settings = WorkerEnv.of(url, QUEUE, SHARDS).set(WorkerSettings.BATCH_SIZE, batch).set(WorkerSettings.CONCURRENCY, concurrency).set(WorkerSettings.HTTP_PORT, 0)
                    .set(WorkerSettings.SCHEDULE_INTERVAL, Duration.ZERO);
            if (cap > 0) {
                settings = settings.set(WorkerSettings.GROUP_MAX_RUNNING, cap);
            }
            java.util.concurrent.atomic.AtomicIntegerArray running = new java.util.concurrent.atomic.AtomicIntegerArray(groups);
            java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
            AtomicLong done = new AtomicLong();
            AtomicLong last = new AtomicLong();
            Worker w = Worker.start(WorkerConfig.fromEnv(settings.toMap()), r -> new HandlerDelivery(task -> {
                int g = Integer.parseInt(task.payload());
                most.accumulateAndGet(running.incrementAndGet(g), Math::max);
                try {
                    Thread.sleep(CAP_HANDLER_MS);
                } finally {
                    running.decrementAndGet(g);
                }
                done.incrementAndGet();
                last.accumulateAndGet(System.currentTimeMillis(), Math::max);
            }));
            try {
                long due = System.currentTimeMillis() + LEAD_MS;
                enqueueInChunks(client, tasks, i -> TaskSpec.of("c-" + i).at(Instant.ofEpochMilli(due)).payload(String.valueOf(i % groups))
                        .group("account-" + i % groups));
                if (System.currentTimeMillis() > due - 1_000) {
                    throw new IllegalStateException("enqueueing the tasks took longer than the lead time " + LEAD_MS + " ms");
                }
                while (done.get() < tasks) {
                    Thread.sleep(5);
                }
                int parallel = cap == 0 ? concurrency : Math.min(concurrency, cap * groups);
                return new CapResult(cap, groups, round, tasks, last.get() - due, parallel * 1000.0 / CAP_HANDLER_MS, most.get());
            } finally {
                w.close();
            }
        }
    }

    /** Enqueues task(0) .. task(n - 1), 500 a call. */
    private static void enqueueInChunks(DelayQueueClient client, int n, java.util.function.IntFunction<TaskSpec> task) {
        List<TaskSpec> chunk = new ArrayList<>(500);
        for (int i = 0; i < n; i++) {
            chunk.add(task.apply(i));
            if (chunk.size() == 500 || i == n - 1) {
                client.enqueueAll(chunk);
                chunk.clear();
            }
        }
    }

    private static String capTable(List<CapResult> results) {
        StringBuilder t = new StringBuilder();
        t.append("| DELAYQ_GROUP_MAX_RUNNING | groups | round | tasks | drained in (ms) | tasks/s | ceiling tasks/s (slots or groups × cap, ÷ handler time) | rate ÷ ceiling | most of one group running at once |\n");
        t.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (CapResult r : results) {
            t.append(String.format("| %s | %d | %d | %,d | %,d | %,.0f | %,.0f | %.2f | %d |%n", r.cap() == 0 ? "none" : String.valueOf(r.cap()),
                    r.groups(), r.round(), r.tasks(), r.drainMs(), r.perSecond(), r.ceilingPerSecond(), r.perSecond() / r.ceilingPerSecond(),
                    r.mostOfOneGroup()));
        }
        return t.toString();
    }

    private static String weightTable(List<WeightResult> results) {
        StringBuilder t = new StringBuilder();
        t.append("| DELAYQ_GROUP_WEIGHTS | round | paying's burst drained in (ms) | trial's burst drained in (ms) | paying's part of the first half fired |\n");
        t.append("|---|---:|---:|---:|---:|\n");
        for (WeightResult r : results) {
            t.append(String.format("| %s | %d | %,d | %,d | %.2f |%n", r.weights(), r.round(), r.payingDrainMs(), r.trialDrainMs(),
                    r.payingShareOfFirstHalf()));
        }
        return t.toString();
    }

    private static long pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return -1;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static String table(List<Result> results) {
        StringBuilder t = new StringBuilder();
        t.append("| variant | round | burst drained in (ms) | quiet tasks due during the burst | quiet lag p50 (ms) | quiet lag p99 (ms) | quiet lag max (ms) | quiet lag p99 before the burst (ms) |\n");
        t.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            t.append(String.format("| %s | %d | %,d | %,d | %,d | %,d | %,d | %,d |%n", label(r.variant()), r.round(), r.burstDrainMs(),
                    r.quietDuringBurst(), r.p50(), r.p99(), r.max(), r.quietBeforeP99()));
        }
        return t.toString();
    }

    private static void write(Path doc, String setup, String redis, String table) throws IOException {
        String page = "# Benchmark: fairness between tenants\n\n"
                + "Part of the [delayq documentation](../README.md#documentation). Generated by `./bench/fairness.sh --doc "
                + doc + "` (io.delayq.bench.FairnessBench); do not edit by hand. Groups are described in\n"
                + "[protocol.md](protocol.md#groups).\n\n"
                + "A quiet tenant enqueues " + QUIET_PER_SECOND + " tasks/s, each due at once, while a noisy tenant's burst comes due at a\n"
                + "single instant. **Without groups** both tenants' tasks share each shard's due set, so a quiet task due during the\n"
                + "burst waits behind every noisy task due before it. **With groups** (`TaskSpec.group(\"quiet\")`, `group(\"noisy\")`) each\n"
                + "claim serves the due groups round robin, so the quiet task is in the next claim of its shard and waits only\n"
                + "behind what the worker had already claimed. The lag is the handler's start minus the task's due time (one\n"
                + "machine, one clock); only quiet tasks due between the burst's due time and its last noisy task count.\n"
                + "Both variants run in the same process against the same Redis, interleaved: compare them within this page.\n"
                + "With groups, what a quiet task still waits behind is what the worker already holds: its claim buffer, about 25 ms\n"
                + "of work at the measured rate (`Prefetch`; with a 100 ms buffer the quiet tenant's p99 was ~170 ms at the same drain).\n\n"
                + "**Weights** (second table, [protocol.md](protocol.md#group-weights)): two tenants, paying and trial, each with half as\n"
                + "many tasks as the burst, all due at one instant, drained by the same worker with equal weights and with\n"
                + "`DELAYQ_GROUP_WEIGHTS=paying=3`, interleaved with the rows above. With paying=3 each claim gives paying three tasks\n"
                + "for one of trial's while both wait (an expected part of 0.75 of the first half fired), so paying's burst drains\n"
                + "first and trial's goes on at the full rate once paying's is done: no tenant waits for the other to finish.\n\n"
                + "**At most N running per group** (third table, [protocol.md](protocol.md#groups-capped-at-n-running)): a tenth as many\n"
                + "tasks as the burst, spread over accounts (groups), all due at one instant, a " + CAP_HANDLER_MS + " ms handler, 16 slots;\n"
                + "without a cap, with `DELAYQ_GROUP_MAX_RUNNING=1` over 20 accounts (the caps allow 20 at once, more than the slots),\n"
                + "and with `2` over 4 accounts (the caps allow 8: half the slots). The ceiling is what the slots or the caps allow\n"
                + "at most (parallel tasks ÷ handler time); the handler counts each account's tasks running at once, which must never\n"
                + "pass the cap. Rate ÷ ceiling is what the permits' extra round trips cost.\n\n"
                + "Set-up: " + setup + ".\n\nRedis: " + redis + ". Run at " + Instant.now() + ".\n\n"
                + table;
        Files.writeString(doc, page);
    }
}
