package io.delayq.bench;

import io.delayq.claim.ClaimBatch;
import io.delayq.claim.ClaimedTask;
import io.delayq.claim.RateLimit;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.Replies;
import io.delayq.schedule.CronSchedule;
import io.delayq.schedule.IndexRules;
import io.delayq.schedule.OccurrenceId;
import io.delayq.schedule.PlanRules;
import io.delayq.schedule.SchedulePlanner;
import io.delayq.task.TaskSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Recurring tasks at scale: N schedules each firing every minute (all at second 0, cron's worst
 * case), planned by P planners as the worker fleet would, delivered by a claim-and-ack loop. Prints,
 * per phase, Redis CPU per minute, Redis memory, and the lag of every occurrence (claim time minus
 * occurrence instant), beside baselines measured in the same run: the same N tasks per minute
 * enqueued by a producer (no schedules), through the same consumer; and the planners reading every
 * schedule on every turn ({@link IndexRules#readEverything()}, the planner before the index of next
 * planning times) beside the indexed planners. No pass or fail. Usage:
 * <pre>
 *   bench/schedules.sh [--schedules 10000] [--minutes 3] [--planners 2] [--shards 16]
 * </pre>
 */
public final class ScheduleBench {
    private static final String QUEUE = "cron";

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int schedules = 10_000;
        int minutes = 3;
        int planners = 2;
        int shards = 16;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--schedules" -> schedules = Integer.parseInt(args[++i]);
                case "--minutes" -> minutes = Integer.parseInt(args[++i]);
                case "--planners" -> planners = Integer.parseInt(args[++i]);
                case "--shards" -> shards = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (see io.delayq.bench.ScheduleBench)");
            }
        }
        System.out.printf("schedule benchmark: %d schedules '* * * * *', %d planner(s) (turn every 5 s, horizon 2 min), %d shards, "
                + "%d minute(s) per phase; %s%n", schedules, planners, shards, minutes, MeasuredOn.describe());
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no");
             RedisProbe probe = new RedisProbe(server.url());
             DelayQueueClient client = DelayQueueClient.builder().redis(server.url()).queue(QUEUE).shards(shards).build()) {
            System.out.println("redis " + probe.version() + " (" + server.origin() + ")");
            Phase baseline = baseline(client, probe, schedules, minutes, shards);
            probe.flushAll();
            Phase everything = scheduled(client, probe, schedules, minutes, planners, shards, IndexRules.readEverything(),
                    "every turn reads all");
            probe.flushAll();
            Phase indexed = scheduled(client, probe, schedules, minutes, planners, shards, IndexRules.defaults(), "indexed");
            System.out.println();
            System.out.printf("%-52s %14s %16s %14s %10s %10s %10s %10s %8s%n", "phase", "tasks fired", "redis cpu ms/min",
                    "memory MiB", "lag p50", "lag p99", "lag max", "early", "dupes");
            for (Phase p : List.of(baseline, everything, indexed)) {
                System.out.printf("%-52s %14d %16.0f %14.1f %8d ms %8d ms %8d ms %10d %8d%n", p.name, p.fired, p.cpuMillisPerMinute,
                        p.memoryBytes / 1048576.0, p.lagP50, p.lagP99, p.lagMax, p.early, p.duplicates);
            }
            System.out.println();
            for (Phase p : List.of(everything, indexed)) {
                System.out.printf("%s: schedule keys (definitions, planner state, index) %.1f MiB (%.0f bytes per schedule); %s%n", p.name,
                        p.scheduleKeyBytes / 1048576.0, (double) p.scheduleKeyBytes / schedules, p.notes);
            }
        }
    }

    record Phase(String name, long fired, double cpuMillisPerMinute, long memoryBytes, long lagP50, long lagP99, long lagMax, long early,
                 long duplicates, long scheduleKeyBytes, String notes) {
    }

    /** The baseline: a producer enqueues N one-off tasks due at the next minute, every minute. */
    private static Phase baseline(DelayQueueClient client, RedisProbe probe, int n, int minutes, int shards) throws Exception {
        Consumer consumer = new Consumer(client, shards, false);
        long firstMinute = nextMinute(client) ;
        List<Long> due = new ArrayList<>();
        for (int m = 0; m < minutes; m++) {
            due.add(firstMinute + m * 60_000L);
        }
        Thread producer = new Thread(() -> {
            for (long at : due) {
                List<TaskSpec> specs = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    specs.add(TaskSpec.of("once-" + i + ":" + at).at(Instant.ofEpochMilli(at)));
                }
                // enqueued ahead, as the planners would: a minute before it is due
                waitUntil(client, at - 60_000);
                client.enqueueAll(specs);
            }
        }, "baseline-producer");
        producer.start();
        waitUntil(client, firstMinute - 5_000);
        RedisProbe.Snapshot before = probe.snapshot();
        consumer.start();
        waitUntil(client, due.get(due.size() - 1) + 10_000);
        consumer.stop();
        RedisProbe.Snapshot after = probe.snapshot();
        producer.join();
        return consumer.phase("baseline: producer, no schedules", n * (long) minutes, before.until(after), probe.usedMemory(), 0, "");
    }

    private static Phase scheduled(DelayQueueClient client, RedisProbe probe, int n, int minutes, int plannerCount, int shards,
                                   IndexRules index, String label) throws Exception {
        long memoryBefore = probe.usedMemory();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            io.delayq.schedule.Schedules.of(client).put(CronSchedule.of("s" + i, "* * * * *").payload("{\"n\":" + i + "}"));
        }
        System.out.printf("put %d schedules in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong turns = new AtomicLong();
        AtomicLong turnMillis = new AtomicLong();
        AtomicLong maxTurnMillis = new AtomicLong();
        AtomicLong touched = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < plannerCount; p++) {
            SchedulePlanner planner = io.delayq.schedule.Schedules.of(client).planner(PlanRules.defaults(), index);
            Thread t = new Thread(() -> {
                while (running.get()) {
                    long s = System.nanoTime();
                    touched.addAndGet(planner.turn().schedules());
                    long ms = (System.nanoTime() - s) / 1_000_000;
                    turns.incrementAndGet();
                    turnMillis.addAndGet(ms);
                    maxTurnMillis.accumulateAndGet(ms, Math::max);
                    sleep(Math.max(0, 5_000 - ms));
                }
            }, "planner-" + p);
            t.start();
            threads.add(t);
        }
        Consumer consumer = new Consumer(client, shards, true);
        long firstMinute = nextMinute(client) + 60_000; // the planners' first turn plans the next two minutes
        waitUntil(client, firstMinute - 5_000);
        long scheduleKeys = probe.memoryUsage("dq:{" + QUEUE + "}:schedules") + probe.memoryUsage("dq:{" + QUEUE + "}:schedules:state")
                + probe.memoryUsage("dq:{" + QUEUE + "}:schedules:due");
        RedisProbe.Snapshot before = probe.snapshot();
        consumer.from(firstMinute);
        consumer.start();
        long last = firstMinute + (minutes - 1) * 60_000L;
        waitUntil(client, last + 10_000);
        consumer.stop();
        RedisProbe.Snapshot after = probe.snapshot();
        long memory = probe.usedMemory();
        running.set(false);
        for (Thread t : threads) {
            t.join();
        }
        String notes = String.format("%d planning turns, %.0f ms mean, %d ms max, %.0f schedules read per turn; memory before the schedules %.1f MiB",
                turns.get(), turnMillis.get() / (double) Math.max(1, turns.get()), maxTurnMillis.get(),
                touched.get() / (double) Math.max(1, turns.get()), memoryBefore / 1048576.0);
        return consumer.phase("schedules, " + plannerCount + " planners, " + label, n * (long) minutes, before.until(after), memory, scheduleKeys, notes);
    }

    private static long nextMinute(DelayQueueClient client) {
        long now = serverNow(client);
        return (now / 60_000 + 1) * 60_000;
    }

    private static long serverNow(DelayQueueClient client) {
        List<String> t = Replies.await(client.redis().commands().time(), Duration.ofSeconds(5));
        return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
    }

    private static void waitUntil(DelayQueueClient client, long epochMs) {
        long wait;
        while ((wait = epochMs - serverNow(client)) > 0) {
            sleep(Math.min(wait, 1000));
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Claims and acks on every shard in turn (batches of 1000, a 20 ms pause when all were empty); records each task's lag. */
    private static final class Consumer {
        private final DelayQueueClient client;
        private final int shards;
        private final boolean occurrences;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<String, Long> lagById = new ConcurrentHashMap<>();
        private final AtomicLong duplicates = new AtomicLong();
        private final AtomicLong early = new AtomicLong();
        private volatile long from;
        private Thread thread;

        Consumer(DelayQueueClient client, int shards, boolean occurrences) {
            this.client = client;
            this.shards = shards;
            this.occurrences = occurrences;
        }

        void from(long epochMs) {
            from = epochMs;
        }

        void start() {
            thread = new Thread(this::loop, "consumer");
            thread.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join();
        }

        private void loop() {
            while (running.get()) {
                boolean any = false;
                for (int s = 0; s < shards; s++) {
                    ClaimBatch b = Replies.await(client.protocol().claim(s, 1000, Duration.ofMinutes(5), RateLimit.NONE),
                            Duration.ofSeconds(10));
                    if (b.tasks().isEmpty()) {
                        continue;
                    }
                    any = true;
                    for (ClaimedTask t : b.tasks()) {
                        long at = occurrences ? OccurrenceId.parse(t.id()).orElseThrow().epochMillis() : t.dueAt();
                        if (at < from) {
                            continue; // planned before the measured window
                        }
                        long lag = b.serverNow() - at;
                        if (lag < 0) {
                            early.incrementAndGet();
                        }
                        if (lagById.put(t.id(), lag) != null) {
                            duplicates.incrementAndGet();
                        }
                    }
                    for (int i = 0; i < b.tasks().size(); i += 500) {
                        Replies.await(client.protocol().ack(s, b.tasks().subList(i, Math.min(b.tasks().size(), i + 500))),
                                Duration.ofSeconds(10));
                    }
                }
                if (!any) {
                    sleep(20);
                }
            }
        }

        Phase phase(String name, long expected, RedisUsage usage, long memory, long scheduleKeys, String notes) {
            long[] lags = lagById.values().stream().mapToLong(Long::longValue).sorted().toArray();
            if (lags.length == 0) {
                lags = new long[]{-1};
            }
            String missing = lags.length < expected ? String.format(" (%d of %d expected fired)", lagById.size(), expected) : "";
            return new Phase(name + missing, lagById.size(), usage.cpuMillis() / (usage.seconds() / 60.0), memory,
                    lags[lags.length / 2], lags[(int) Math.min(lags.length - 1, Math.ceil(lags.length * 0.99) - 1)], lags[lags.length - 1],
                    early.get(), duplicates.get(), scheduleKeys, notes);
        }
    }
}
