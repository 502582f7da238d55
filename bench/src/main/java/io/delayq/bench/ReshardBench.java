package io.delayq.bench;

import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.Replies;
import io.delayq.reshard.Mover;
import io.delayq.settings.WorkerEnv;
import io.delayq.settings.WorkerSettings;
import io.delayq.shard.Sharding;
import io.delayq.task.TaskSpec;
import io.delayq.worker.Worker;
import io.delayq.app.worker.LayoutFollower;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a live grow costs the tasks that keep firing: a queue of {@code --from} shards holding {@code --waiting}
 * waiting tasks (due hours later) gets {@code --rate} new tasks a second, each due 1–5 s after it is written, fired
 * by a worker over the whole queue (the one that follows a grow: {@link LayoutFollower}, every setting at its
 * default). First a baseline phase of {@code --baseline} seconds without a migration, then, in the same Redis,
 * the same load while {@link Mover} grows the queue to {@code --to} shards (what {@code delayq reshard} runs).
 * Per phase: the lag (first run − due) of the tasks due inside it, p50 / p99 / max, split by old and new shards
 * for the migration; Redis CPU (INFO cpu) and the longest single calls (SLOWLOG, LATENCY); and lost, early and
 * duplicate counts of both the live tasks and the waiting ones (none of which may run). No pass or fail: figures,
 * written into docs/resharding.md between {@code <!-- bench:reshard -->} markers ({@code --section NAME}: bench:NAME) unless
 * {@code --no-docs}.
 * <pre>
 *   bench/reshard.sh [--waiting 1000000] [--from 16] [--to 64] [--rate 1000] [--baseline 30] [--batch 100] [--runs 2]
 *                    [--pause-ms 2 (the Mover's default; 0: back to back)] [--follow-every-ms 5000] [--section reshard] [--no-docs]
 *                    [--protocol 2 (the queue's protocol; default 3)]
 * </pre>
 */
public final class ReshardBench {
    private static final String QUEUE = "grow";

    record Settings(int waiting, int from, int to, int rate, int baselineSeconds, int batch, long pauseMs, int runs, long followEveryMs, boolean docs,
                    long minDelay, long maxDelay, String section, String args) {
    }

    /** One phase's figures. */
    record Phase(String name, double seconds, int dueInside, long[] lags, long[] lagsOld, long[] lagsNew, double cpuMillis,
                 SlowCalls.Reading calls, long gcMillis, String loadAtEnd) {
        double cpuPerSecond() {
            return cpuMillis / seconds;
        }
    }

    /** One run: the two phases and the counts that must be 0. */
    record Run(int number, String load, String loadEnd, Phase baseline, Phase migration, Mover.Result moved, int produced, int lost, int early,
               int duplicates, long waitingLost, long waitingRan, long failedCalls, String notes) {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        int waiting = 1_000_000;
        int from = 16;
        int to = 64;
        int rate = 1000;
        int baseline = 30;
        int batch = 100;
        long pause = Mover.DEFAULT_PAUSE.toMillis();
        int runs = 2;
        long followEvery = LayoutFollower.CHECK_EVERY.toMillis();
        boolean docs = true;
        String section = "reshard";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--waiting" -> waiting = Integer.parseInt(args[++i]);
                case "--from" -> from = Integer.parseInt(args[++i]);
                case "--to" -> to = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Integer.parseInt(args[++i]);
                case "--baseline" -> baseline = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--pause-ms" -> pause = Long.parseLong(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--follow-every-ms" -> followEvery = Long.parseLong(args[++i]);
                case "--no-docs" -> docs = false;
                case "--section" -> section = args[++i];
                // the protocol the benchmark's queue is created with (docs/protocol3.md; default 3)
                case "--protocol" -> System.setProperty("delayq.protocol", args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (see io.delayq.bench.ReshardBench)");
            }
        }
        Settings s = new Settings(waiting, from, to, rate, baseline, batch, pause, runs, followEvery, docs, 1000, 5000, section, String.join(" ", args));
        System.out.printf("reshard benchmark: %,d waiting tasks, %d -> %d shards, %,d new tasks/s due %d-%d ms after enqueue, "
                        + "mover batch %d, baseline %d s, %d run(s); %s; load average %s%n", waiting, from, to, rate, s.minDelay(), s.maxDelay(),
                batch, baseline, runs, MeasuredOn.describe(), MeasuredOn.loadAverage());
        List<Run> results = new ArrayList<>();
        long started = System.currentTimeMillis();
        for (int r = 1; r <= runs; r++) {
            results.add(run(s, r));
            printTable(s, results);
        }
        String rendered = render(s, results, System.currentTimeMillis() - started);
        System.out.println();
        System.out.println(rendered);
        if (docs) {
            Path file = Path.of("docs/resharding.md");
            DocSections.write(file, s.section(), rendered);
            System.out.println("written to " + file);
        }
    }

    private static Run run(Settings s, int number) throws Exception {
        String loadAtStart = MeasuredOn.loadAverage();
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no");
             RedisProbe probe = new RedisProbe(server.url());
             SlowCalls slow = new SlowCalls(server.url(), 200);
             DelayQueueClient producer = DelayQueueClient.builder().redis(server.url()).queue(QUEUE).shards(s.from()).build();
             DelayQueueClient moverClient = DelayQueueClient.builder().redis(server.url()).queue(QUEUE).shards(s.from()).build()) {
            System.out.printf("%nrun %d: redis %s (%s)%n", number, probe.version(), server.origin());
            long t = System.nanoTime();
            loadWaiting(producer, s.waiting());
            System.out.printf("run %d: %,d waiting tasks written in %.1f s%n", number, s.waiting(), (System.nanoTime() - t) / 1e9);

            int capacity = s.rate() * (s.baselineSeconds() + 1200);
            LiveLoad live = new LiveLoad(producer, s.rate(), s.minDelay(), s.maxDelay(), capacity);
            AtomicLong waitingRan = new AtomicLong();
            Map<String, String> env = WorkerEnv.of(server.url(), QUEUE, s.from()).set(WorkerSettings.HTTP_PORT, 0).toMap();
            io.delayq.handler.TaskHandler handler = task -> {
                if (task.id().startsWith(LiveLoad.PREFIX)) {
                    live.ran(task.id());
                } else {
                    waitingRan.incrementAndGet();
                }
            };
            LayoutFollower worker = LayoutFollower.start(new LayoutFollower.Params(env, c -> Worker.startEmbedded(c, handler),
                    Duration.ofMillis(s.followEveryMs())));
            try {
                live.start();
                Pause.millis(s.maxDelay() + 3000); // warm-up: the first tasks come due, the JIT settles
                Phase base = phase(probe, slow, "baseline: no migration", s, () -> Pause.millis(s.baselineSeconds() * 1000L), live);
                Mover.Result[] moved = new Mover.Result[1];
                Phase migration = phase(probe, slow, "during the " + s.from() + " → " + s.to() + " migration", s, () -> moved[0] =
                        new Mover(Mover.Params.of(moverClient.protocol(), s.to(), p -> { }).withBatch(s.batch()).withPause(java.time.Duration.ofMillis(s.pauseMs()))).run(), live);
                // the tasks due at the end of the migration still have to run
                Pause.millis(2000);
                live.stopProducing();
                long deadline = System.nanoTime() + 120_000_000_000L;
                while (live.ranDistinct() < live.produced() && System.nanoTime() < deadline) {
                    Pause.millis(50);
                }
                int lost = live.produced() - live.ranDistinct();
                Replies.await(producer.protocol().refreshLayout(), Duration.ofSeconds(5));
                long scheduled = producer.stats().scheduled();
                String notes = String.format("moved %,d in %d passes; load average %s at the start, %s at the end", moved[0].moved(),
                        moved[0].passes(), loadAtStart, MeasuredOn.loadAverage());
                System.out.printf("run %d: %s%n", number, notes);
                return new Run(number, loadAtStart, MeasuredOn.loadAverage(), base, migration, moved[0], live.produced(), lost, live.early(), live.duplicates(),
                        s.waiting() - scheduled, waitingRan.get(), live.failedCalls(), notes);
            } finally {
                live.close();
                worker.shutdown(Duration.ofSeconds(10));
            }
        }
    }

    private static long gcMillis() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }

    private interface Body {
        void run() throws Exception;
    }

    private static Phase phase(RedisProbe probe, SlowCalls slow, String name, Settings s, Body body, LiveLoad live) throws Exception {
        slow.reset();
        RedisProbe.Snapshot before = probe.snapshot();
        long gc0 = gcMillis();
        long fromMillis = System.currentTimeMillis();
        body.run();
        long toMillis = System.currentTimeMillis();
        RedisProbe.Snapshot after = probe.snapshot();
        SlowCalls.Reading calls = slow.read();
        RedisUsage usage = before.until(after);
        // the tasks due inside the phase: wait until the last of them had its chance to run (due + 5 s)
        Pause.millis(Math.max(0, toMillis + 5000 - System.currentTimeMillis()));
        int old = s.from();
        Phase p = new Phase(name, (toMillis - fromMillis) / 1000.0, live.dueIn(fromMillis, toMillis), live.lagsMicros(fromMillis, toMillis, i -> true),
                live.lagsMicros(fromMillis, toMillis, i -> Sharding.shardOf(LiveLoad.PREFIX + i, s.to()) < old),
                live.lagsMicros(fromMillis, toMillis, i -> Sharding.shardOf(LiveLoad.PREFIX + i, s.to()) >= old), usage.cpuMillis(), calls,
                gcMillis() - gc0, MeasuredOn.loadAverage().split(" ")[0]);
        System.out.printf("  %s: %.1f s, %,d due, lag p50 %s p99 %s max %s, redis cpu %.0f ms/s%n", name, p.seconds(), p.dueInside(),
                ms(pct(p.lags(), 0.5)), ms(pct(p.lags(), 0.99)), ms(max(p.lags())), p.cpuPerSecond());
        return p;
    }

    /** The waiting backlog: due 2–3 hours from now, written with enqueueAll in chunks of 5,000, 4 calls in flight. */
    private static void loadWaiting(DelayQueueClient client, int n) {
        long base = System.currentTimeMillis() + Duration.ofHours(2).toMillis();
        BulkEnqueue.enqueue(client, n, 5000, 4,
                i -> TaskSpec.of("order-" + i).at(Instant.ofEpochMilli(base + (i % 3600) * 1000L)).payload("{\"order\":" + i + "}"));
    }

    static long pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
    }

    static long max(long[] sorted) {
        return sorted.length == 0 ? -1 : sorted[sorted.length - 1];
    }

    static String ms(long micros) {
        return micros < 0 ? "–" : micros < 10_000 ? String.format("%.1f ms", micros / 1000.0) : String.format("%,d ms", micros / 1000);
    }

    private static String lags(long[] l) {
        return ms(pct(l, 0.5)) + " / " + ms(pct(l, 0.99)) + " / " + ms(max(l));
    }

    private static String longest(SlowCalls.Reading r, boolean scripts) {
        Map.Entry<String, SlowCalls.Calls> e = r.longest(scripts);
        return e == null ? "none ≥ 0.2 ms" : String.format("%.1f ms (%s)", e.getValue().longestMicros() / 1000.0, e.getKey());
    }

    private static String latency(SlowCalls.Reading r) {
        return r.latencyMaxMillis().isEmpty() ? "none ≥ 1 ms" : r.latencyMaxMillis().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue() + " ms").reduce((a, b) -> a + ", " + b).orElse("");
    }

    private static void printTable(Settings s, List<Run> runs) {
        System.out.println();
        System.out.printf("%-4s %-34s %8s %9s %28s %28s %28s %14s %22s %22s%n", "run", "phase", "seconds", "tasks due", "lag p50 / p99 / max",
                "old shards", "new shards", "redis cpu ms/s", "longest script call", "longest plain command");
        for (Run r : runs) {
            for (Phase p : List.of(r.baseline(), r.migration())) {
                System.out.printf("%-4d %-34s %8.1f %9d %28s %28s %28s %14.0f %22s %22s%n", r.number(), p.name(), p.seconds(), p.dueInside(),
                        lags(p.lags()), lags(p.lagsOld()), lags(p.lagsNew()), p.cpuPerSecond(), longest(p.calls(), true), longest(p.calls(), false));
            }
            System.out.printf("     p99 during / without: %.2f×; move cost %.0f ms of Redis CPU (%.2f ms per 1,000 moved); lost %d, early %d, "
                            + "duplicates %d of %,d live; waiting lost %d, waiting run %d%n", ratio(r), moveCost(r), moveCost(r) * 1000.0 / Math.max(1, r.moved().moved()),
                    r.lost(), r.early(), r.duplicates(), r.produced(), r.waitingLost(), r.waitingRan());
        }
    }

    static double ratio(Run r) {
        return (double) pct(r.migration().lags(), 0.99) / Math.max(1, pct(r.baseline().lags(), 0.99));
    }

    /** Redis CPU of the migration phase beyond what the baseline's rate would have spent in the same time. */
    static double moveCost(Run r) {
        return r.migration().cpuMillis() - r.baseline().cpuPerSecond() * r.migration().seconds();
    }

    static String render(Settings s, List<Run> runs, long wallMillis) {
        StringBuilder md = new StringBuilder();
        md.append("Produced by `./bench/reshard.sh").append(s.args().isEmpty() ? "" : " " + s.args()).append("` on ")
                .append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")))
                .append(" — ").append(MeasuredOn.describe()).append(String.format(", %d run(s), %.1f min. ", runs.size(), wallMillis / 60000.0))
                .append("3".equals(System.getProperty("delayq.protocol")) ? "A queue of protocol 3 (docs/protocol3.md): " : "")
                .append(String.format("%,d waiting tasks (due 2–3 h later) on %d shards grown to %d by the mover (batch %d%s) while %,d new tasks/s, "
                                + "each due 1–5 s after it is written, are fired by one worker over the whole queue (every setting at its default; it "
                                + "follows the grow, checking the meta hash every %,d ms). Baseline first, then the migration, in the same Redis. "
                                + "Lag = first run − due, of the tasks due inside the phase.\n\n",
                        s.waiting(), s.from(), s.to(), s.batch(), s.pauseMs() > 0 ? ", a " + s.pauseMs() + " ms pause after every batch" : ", no pause between batches",
                        s.rate(), s.followEveryMs()));
        md.append("| run | phase | time | tasks due | lag p50 / p99 / max | on old shards | on new shards | Redis CPU | longest script call "
                + "| longest plain command | LATENCY max | harness GC | load (1 min) at the end |\n");
        md.append("| --- | --- | ---: | ---: | --- | --- | --- | ---: | --- | --- | --- | ---: | ---: |\n");
        for (Run r : runs) {
            for (Phase p : List.of(r.baseline(), r.migration())) {
                boolean m = p == r.migration();
                md.append(String.format("| %d | %s | %.1f s | %,d | %s | %s | %s | %.0f ms/s | %s | %s | %s | %,d ms | %s |\n", r.number(), p.name(),
                        p.seconds(), p.dueInside(), lags(p.lags()), m ? lags(p.lagsOld()) : "–", m ? lags(p.lagsNew()) : "–", p.cpuPerSecond(),
                        longest(p.calls(), true), longest(p.calls(), false), latency(p.calls()), p.gcMillis(), p.loadAtEnd()));
            }
        }
        md.append("\n| run | p99 during ÷ without (goal ≤ 2) | moved | Redis CPU the move cost | per 1,000 moved | script calls over 1 ms / 2 ms "
                + "(migration) | live tasks: lost / early / duplicates | waiting tasks: lost / run early | enqueue calls retried | machine load |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | --- |\n");
        for (Run r : runs) {
            md.append(String.format("| %d | %.2f | %,d in %d passes | %,.0f ms | %.1f ms | %d / %d | **%d / %d / %d** of %,d | **%d / %d** | %d | %s → %s |\n",
                    r.number(), ratio(r), r.moved().moved(), r.moved().passes(), moveCost(r), moveCost(r) * 1000.0 / Math.max(1, r.moved().moved()),
                    r.migration().calls().over(1, true), r.migration().calls().over(2, true), r.lost(), r.early(), r.duplicates(), r.produced(),
                    r.waitingLost(), r.waitingRan(), r.failedCalls(), r.load(), r.loadEnd()));
        }
        md.append('\n');
        return md.toString();
    }
}
