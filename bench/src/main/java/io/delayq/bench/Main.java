package io.delayq.bench;

import io.delayq.localredis.LocalRedisServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The benchmark: delayq against the classic ZSET loops, Redisson's RDelayedQueue and BullMQ, on one
 * redis-server that the harness starts itself, in one run. Usage (bench/run.sh passes these):
 * <pre>
 *   --quick          smaller workloads for development (W1 20k, W2 5 s, memory 100k)
 *   --runs N         how many times to run everything (default 2: the spread shows)
 *   --only a,b       only subjects whose name contains one of these (e.g. delayq,bullmq)
 *   --no-memory      skip the memory workload
 *   --no-costs       skip the idle, webhook and footprint figures of delayq's worker
 *   --w1-only        tuning aid: only W1 (after the same warm-up as a full run), printed, nothing written; with
 *                    -Dbench.delayq.variants="shards=4|DELAYQ_BATCH_SIZE=1000" rows beside the defaults with one setting
 *                    changed (see Subjects), -Dbench.threads=true the drain's CPU per thread (ThreadCpu)
 *   --webhook-only   tuning aid: only the webhook figures of delayq's worker, printed, nothing written
 *   --idle-only      tuning aid: only the idle cost by shard count of delayq's worker, printed, nothing written
 *   --layouts-only   only the record-layout study (bench/profile/record_layouts.py), printed, nothing written
 *   --docs DIR       where bench.md, bench-results.csv and bench.png go (default docs)
 *   --bullmq DIR     the folder holding bench.js and its node_modules (default bench/bullmq)
 * </pre>
 */
public final class Main {
    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        boolean quick = false;
        boolean memory = true;
        boolean w1Only = false;
        boolean webhookOnly = false;
        boolean idleOnly = false;
        boolean layoutsOnly = false;
        boolean costs = true;
        int runs = 2;
        Set<String> only = Set.of();
        Path docs = Path.of("docs");
        Path bullmq = Path.of("bench", "bullmq");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--no-memory" -> memory = false;
                case "--no-costs" -> costs = false;
                case "--w1-only" -> w1Only = true;
                case "--webhook-only" -> webhookOnly = true;
                case "--idle-only" -> idleOnly = true;
                case "--layouts-only" -> layoutsOnly = true;
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--only" -> only = Arrays.stream(args[++i].toLowerCase(Locale.ROOT).split(",")).map(String::trim).collect(Collectors.toSet());
                case "--docs" -> docs = Path.of(args[++i]);
                case "--bullmq" -> bullmq = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (see io.delayq.bench.Main)");
            }
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1");
        }
        if (layoutsOnly) {
            System.out.println(RecordLayouts.section(LAYOUT_REPS, LAYOUT_BATCH));
            return;
        }
        Sizes sizes = quick ? Sizes.small() : Sizes.standard();
        Files.createDirectories(docs);
        Path nodeLog = Path.of("bench", "target", "bullmq.log");
        Files.createDirectories(nodeLog.getParent());
        String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);

        System.out.println("delayq benchmark: " + sizes.describe());
        System.out.println("machine: " + MeasuredOn.describe() + "; load " + MeasuredOn.loadAverage());
        try (LocalRedisServer redis = LocalRedisServer.start("--maxmemory-policy", "noeviction");
             RedisProbe probe = new RedisProbe(redis.url())) {
            String redisVersion = probe.version();
            System.out.println("redis-server " + redisVersion + " (" + redis.origin() + ") on " + redis.url() + ", persistence off");
            List<Subject> subjects = Subjects.all(bullmq.resolve("bench.js"), nodeLog);
            if (!only.isEmpty()) {
                Set<String> wanted = only;
                subjects = subjects.stream().filter(s -> wanted.stream().anyMatch(w -> s.name().toLowerCase(Locale.ROOT).contains(w))).toList();
            }
            for (Subject s : subjects) {
                System.out.println("  " + s.name() + ": " + s.settings());
            }
            if (webhookOnly) {
                Path receiver = bullmq.getParent().resolve("webhook").resolve("receiver.js");
                for (int run = 1; run <= runs; run++) {
                    System.out.println(new WorkerCosts(new Workbench(redis.url(), probe, sizes, 42L + run), receiver).webhook(run));
                }
                return;
            }
            if (idleOnly) {
                for (int run = 1; run <= runs; run++) {
                    String before = MeasuredOn.loadAverage();
                    String table = new WorkerCosts(new Workbench(redis.url(), probe, sizes, 42L + run), null).idle(run);
                    System.out.println(table + "(load " + before + " → " + MeasuredOn.loadAverage() + ")\n");
                }
                return;
            }
            if (w1Only) {
                // tuning aid: W1 alone, repeated, no report written; warmed up as a full run is, or the first in-JVM
                // subject's figures are mostly the JIT compiler's (delayq's defaults: ~25 ms of client CPU per 1,000 tasks cold, ~5 warm)
                warmUp(subjects, new Workbench(redis.url(), probe, sizes, 41L), WARM_UP_ROUNDS);
                DrainProfile.arm();
                for (int run = 1; run <= runs; run++) {
                    Workbench bench = new Workbench(redis.url(), probe, sizes, 42L + run);
                    for (Subject s : subjects) {
                        probe.flushAll();
                        Results.W1 w1 = s.w1(bench);
                        System.out.printf("[W1 %d] %s: enqueue %,.0f/s, drain %,.0f/s, Redis CPU %.1f ms/1k drained, client CPU %.1f ms/1k (load %s)%n",
                                run, s.name(), w1.enqueuePerSecond(), w1.drainPerSecond(), w1.drain().cpuMillisPer1000(w1.tasks()),
                                w1.clientCpuMillisPer1000(), MeasuredOn.loadAverage());
                    }
                }
                if (DrainProfile.section() != null) {
                    System.out.println(DrainProfile.section());
                }
                return;
            }
            List<Row> rows = new ArrayList<>();
            Workbench warmUpBench = new Workbench(redis.url(), probe, sizes, 41L);
            for (int run = 1; run <= runs; run++) {
                Workbench bench = new Workbench(redis.url(), probe, sizes, 42L + run);
                for (Subject s : subjects) {
                    // right before its own row: the other subjects' code between warm-up and row would leave the
                    // JIT compiler at work during the row (delayq's defaults: 8-16 ms of client CPU per 1,000 tasks)
                    warmUp(List.of(s), warmUpBench, run == 1 ? WARM_UP_ROUNDS : 1);
                    rows.add(runOne(run, s, bench, memory));
                    if (run == runs && s instanceof JvmSubject) {
                        profiledDrain(s, bench);
                    }
                }
            }
            Report report = new Report(sizes, started, redisVersion, rows);
            if (DrainProfile.section() != null) {
                report.addSection(DrainProfile.section());
                System.out.println("[profile] claim and ack script costs");
                report.addSection(ScriptCost.section(50_000, 1_000, 3));
                System.out.println("[profile] record layouts");
                report.addSection(RecordLayouts.section(LAYOUT_REPS, LAYOUT_BATCH));
            }
            if (costs && (only.isEmpty() || only.contains("delayq"))) {
                workerCosts(report, redis.url(), probe, sizes, runs, bullmq.getParent().resolve("webhook").resolve("receiver.js"));
            }
            report.writeCsv(docs.resolve("bench-results.csv"));
            report.writeMarkdown(docs.resolve("bench.md"));
            new Plot(rows).write(docs.resolve("bench.png"));
            System.out.println();
            System.out.println(report.summaryTable());
            System.out.println("wrote " + docs.resolve("bench.md") + ", " + docs.resolve("bench-results.csv") + ", " + docs.resolve("bench.png"));
        }
    }

    /** The figures of delayq's worker alone: idle cost by shard count, webhook delivery, process footprint; once per run. */
    private static void workerCosts(Report report, String url, RedisProbe probe, Sizes sizes, int runs, Path receiver) throws Exception {
        StringBuilder idle = new StringBuilder("## Idle cost by shard count\n\nOne worker with the default settings and no task at all, "
                + "measured over " + WorkerCosts.IDLE_WINDOW_MILLIS / 1000 + " s after its start-up (which claims every shard once): Redis "
                + "commands a second (INFO commandstats, commands inside scripts counted) and Redis CPU. Goal: ≤ 100 commands/s "
                + "and ≤ 0.5 % at any shard count.\n\n");
        StringBuilder hook = new StringBuilder("## Webhook delivery\n\nOne worker (16 shards) POSTing to a node `http` receiver with keep-alive on "
                + "loopback (`bench/webhook/receiver.js`), in the harness' JVM after an unrecorded backlog of 20,000 (the JIT compiler's warm-up, once per path); lag = arrival at the receiver − due time. The asynchronous path (requests in "
                + "flight without a thread each) beside the blocking one (a handler thread waiting per request, the same-run baseline); the "
                + "harness' JVM runs with -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 (bench/run.sh), as the delayq executable sets it "
                + "on fewer than 3 cores, without which a worker on 2 cores picks the blocking path (docs/worker.md). Goal: the defaults keep up with 5,000 tasks/s of 20 ms webhooks.\n\n");
        StringBuilder foot = new StringBuilder("## Worker footprint\n\nThe packaged worker (`java -jar app/target/delayq.jar`, "
                + "default JVM flags, 16 shards, default settings, stream delivery) as its own process: time from process start to "
                + "`/readyz` answering 200, RSS 5 s after that (idle), and the highest RSS sampled every 100 ms while it drains W1.\n\n"
                + "| run | start-up to /readyz | RSS idle | RSS peak under W1 |\n|---:|---:|---:|---:|\n");
        Path jar = Path.of("app", "target", "delayq.jar");
        for (int run = 1; run <= runs; run++) {
            WorkerCosts costs = new WorkerCosts(new Workbench(url, probe, sizes, 42L + run), receiver);
            System.out.println("[run " + run + "] worker costs");
            idle.append(costs.idle(run)).append('\n');
            hook.append(costs.webhook(run)).append('\n');
            if (Files.exists(jar)) {
                foot.append(costs.footprint(run, jar));
            }
        }
        report.addSection(idle.toString());
        report.addSection(hook.toString());
        report.addSection(foot.append('\n').toString());
    }

    static final int LAYOUT_REPS = 2;
    static final int LAYOUT_BATCH = 1_000;
    static final int WARM_UP_TASKS = 20_000;
    static final int WARM_UP_ROUNDS = Integer.getInteger("bench.warmup.rounds", 3);
    /** Rounds beyond the minimum go on while the JIT compiler spent more than this per 1,000 tasks of the last one. */
    static final double JIT_QUIET_MILLIS_PER_1000 = 2.0;
    static final int MAX_WARM_UP_ROUNDS = 12;

    /**
     * Unrecorded W1s of 20,000 tasks per in-JVM subject, at least {@code rounds} and then until the JIT compiler goes
     * quiet, so that its row is not measuring the compiler (C2 compiles after ~10,000 calls, and delayq's defaults kept it
     * busy at 15-25 ms of CPU per 1,000 tasks into a third round; node is started afresh per workload and warms within it).
     */
    private static void warmUp(List<Subject> subjects, Workbench full, int rounds) throws Exception {
        Sizes s = full.sizes();
        Sizes small = new Sizes(s.quick(), WARM_UP_TASKS, s.w2Rate(), s.w2Seconds(), s.w2MaxDelayMs(), s.memoryTasks(), s.payloadBytes());
        Workbench bench = new Workbench(full.redisUrl(), full.probe(), small, full.seed());
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        for (Subject subject : subjects) {
            if (!(subject instanceof JvmSubject)) {
                continue;
            }
            double jitPer1000 = Double.MAX_VALUE;
            for (int round = 1; round <= MAX_WARM_UP_ROUNDS && (round <= rounds || jitPer1000 > JIT_QUIET_MILLIS_PER_1000); round++) {
                full.probe().flushAll();
                long compiledBefore = jit.getTotalCompilationTime();
                Results.W1 w1 = subject.w1(bench);
                jitPer1000 = (jit.getTotalCompilationTime() - compiledBefore) * 1000.0 / w1.tasks();
                System.out.printf("warm-up %d %s: W1 of %,d, drain %,.0f tasks/s, JIT compiler %.1f ms per 1,000 tasks%n",
                        round, subject.name(), w1.tasks(), w1.drainPerSecond(), jitPer1000);
            }
        }
    }

    /**
     * An extra W1, recorded by JFR and reported only in the profile section: a recording costs the JVM it samples
     * (delayq's defaults: 12-30 ms of client CPU per 1,000 tasks with it, ~5 without, in one JVM), so no row is taken with it.
     */
    private static void profiledDrain(Subject s, Workbench bench) throws Exception {
        DrainProfile.arm();
        try {
            bench.probe().flushAll();
            s.w1(bench);
        } finally {
            DrainProfile.disarm();
        }
    }

    private static Row runOne(int run, Subject s, Workbench bench, boolean memory) throws Exception {
        String loadBefore = MeasuredOn.loadAverage();
        System.out.printf("%n[run %d] %s (load %s)%n", run, s.name(), loadBefore);
        bench.probe().flushAll();
        Results.W1 w1 = s.w1(bench);
        System.out.printf("  W1 enqueue %,.0f tasks/s (%.2f s), drain %,.0f tasks/s (%.2f s), duplicates %,d; drain CPU per 1k tasks: Redis %.1f ms, client %.1f ms; %.1f Redis cmds/task%s%n",
                w1.enqueuePerSecond(), w1.enqueueSeconds(), w1.drainPerSecond(), w1.drainSeconds(), w1.duplicates(),
                w1.drain().cpuMillisPer1000(w1.tasks()), w1.clientCpuMillisPer1000(), w1.drain().commandsPerTask(w1.tasks()),
                w1.note().isEmpty() ? "" : " [" + w1.note() + "]");
        System.out.println("     drain commands per task: " + w1.drain().top(w1.tasks(), 8));
        bench.probe().flushAll();
        Results.W2 w2 = s.w2(bench);
        System.out.printf("  W2 lag p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms; lost %,d, duplicated %,d; Redis CPU %.1f ms/1k tasks, %.1f cmds/task (%.2f script calls)%s%n",
                w2.lagMillis(0.50), w2.lagMillis(0.99), w2.lagMillis(0.999), w2.maxLagMillis(), w2.lost(), w2.duplicates(),
                w2.usage().cpuMillisPer1000(w2.tasks()), w2.usage().commandsPerTask(w2.tasks()),
                (double) w2.usage().scriptCalls() / w2.tasks(), w2.note().isEmpty() ? "" : " [" + w2.note() + "]");
        System.out.println("     commands per task: " + w2.usage().top(w2.tasks(), 10));
        System.out.printf("     Redis µs per task inside: evalsha %.1f, bzpopmin %.1f (CPU in total %.1f µs per task)%n",
                w2.usage().usecPerTask("evalsha", w2.tasks()), w2.usage().usecPerTask("bzpopmin", w2.tasks()), w2.usage().cpuMillis() * 1000 / w2.tasks());
        Results.Memory mem = null;
        if (memory) {
            bench.probe().flushAll();
            mem = s.memory(bench);
            if (mem != null) {
                System.out.printf("  memory %,.1f bytes per waiting task (%,.1f beyond the %d-byte id and %d-byte payload)%s%n",
                        mem.bytesPerTask(), mem.overheadPerTask(), mem.idBytes(), mem.payloadBytes(), mem.note().isEmpty() ? "" : "; " + mem.note());
            }
        }
        bench.probe().flushAll();
        String loadAfter = MeasuredOn.loadAverage();
        return new Row(run, s.name(), s.system(), s.settings(), w1, w2, mem, loadBefore, loadAfter);
    }
}
