package io.delayq.bench;

import io.delayq.bulk.BulkAction;
import io.delayq.bulk.BulkActions;
import io.delayq.bulk.BulkFilter;
import io.delayq.bulk.BulkJob;
import io.delayq.bulk.BulkPreview;
import io.delayq.bulk.BulkRun;
import io.delayq.client.DelayQueueClient;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.task.DuplicatePolicy;
import io.delayq.task.TaskSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one script call of a bulk action costs Redis with a large waiting backlog: 1,000,000 waiting tasks (default) on
 * 16 shards, then a preview by id prefix (a sparse match: every entry is read), a shift of every task by +1h (the
 * walk from the latest task back), a run-now of a due window, and a cancel by prefix, each measured from Redis's
 * own SLOWLOG (every call of 200 µs or more). The enqueue calls that built the backlog are the baseline. Writes the
 * figures into docs/bench.md (the bench:bulk section) unless {@code --no-docs}; no pass or fail.
 * Args: [--tasks 1000000] [--shards 16] [--batch 200] [--no-docs]
 */
public final class BulkBench {
    private BulkBench() {
    }

    private static final String HEADING = "## Bulk actions: the longest single script call\n\n"
            + "`./bench/bulk.sh` (`io.delayq.bench.BulkBench`): each bulk call reads at most 500 entries of one shard's due sets and acts on "
            + "at most a batch of them, so its length does not grow with the backlog. The last column is the longest plain command "
            + "of the same phase: it does no scripted work, so a script call about as long as it was the machine stalling Redis "
            + "(2 shared cores), not the script.\n\n";

    public static void main(String[] args) throws Exception {
        int tasks = 1_000_000;
        int shards = 16;
        int batch = BulkRun.DEFAULT_BATCH;
        boolean docs = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--tasks" -> tasks = Integer.parseInt(args[++i]);
                case "--shards" -> shards = Integer.parseInt(args[++i]);
                case "--batch" -> batch = Integer.parseInt(args[++i]);
                case "--no-docs" -> docs = false;
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (--tasks N --shards N --batch N --no-docs)");
            }
        }
        StringBuilder out = new StringBuilder();
        try (LocalRedisServer server = LocalRedisServer.start("--save", "", "--appendonly", "no");
             DelayQueueClient client = DelayQueueClient.builder().redis(server.url()).queue("bench").shards(shards).build();
             SlowCalls slow = new SlowCalls(server.url(), 200)) {
            slow.reset();
            List<TaskSpec> chunk = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                chunk.add(TaskSpec.of("order-" + i).after(Duration.ofHours(1 + i % 24)).payload("{\"order\":" + i + "}"));
                if (chunk.size() == 5000 || i == tasks - 1) {
                    client.enqueueAll(chunk, DuplicatePolicy.REJECT);
                    chunk.clear();
                }
            }
            SlowCalls.Reading enqueue = slow.read();
            BulkActions bulk = new BulkActions(client.protocol().scope(), Duration.ofSeconds(30));
            out.append(String.format("%,d waiting tasks on %d shards, batch %d tasks per call, reads capped at 500 entries per call "
                    + "(measured %s, redis-server on this machine, SLOWLOG threshold 200 µs):%n%n", tasks, shards, batch, Instant.now()));
            out.append("| phase | tasks matched / acted on | time | script calls logged ≥ 200 µs | over 1 ms | over 2 ms | longest single call | longest plain command (the machine's own stalls) |\n");
            out.append("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
            out.append(row("enqueue (baseline: 5,000 per call)", tasks, 0, enqueue, "enqueue.lua"));

            slow.reset();
            long t0 = System.nanoTime();
            BulkPreview p = bulk.preview(BulkFilter.ALL.prefix("order-1"));
            out.append(row("preview, id prefix `order-1` (every entry read)", p.matched(), System.nanoTime() - t0, slow.read(), "bulk_preview.lua"));

            final int b = batch;
            out.append(run(bulk, slow, "shift +1h of every task (walked latest first)", BulkFilter.ALL, BulkAction.shift(Duration.ofHours(1)), b));
            Instant now = Instant.now();
            out.append(run(bulk, slow, "run now, due window of 1 hour", BulkFilter.ALL.window(now.plus(Duration.ofHours(3)), now.plus(Duration.ofHours(4))),
                    BulkAction.runNow(), b));
            out.append(run(bulk, slow, "cancel, id prefix `order-1`", BulkFilter.ALL.prefix("order-1"), BulkAction.cancel(), b));
        }
        System.out.print(out);
        if (docs) {
            DocSections.write(Path.of("docs", "bench.md"), "bulk", HEADING + out);
        }
    }

    private static String run(BulkActions bulk, SlowCalls slow, String name, BulkFilter filter, BulkAction action, int batch) {
        slow.reset();
        long t0 = System.nanoTime();
        BulkJob job = bulk.start(filter, action, "bench");
        BulkJob end = bulk.run(job.id(), BulkRun.defaults().batch(batch).pause(Duration.ZERO));
        SlowCalls.Reading r = slow.read();
        return row(name + " (preview, then the run)", end.done(), System.nanoTime() - t0, r, "bulk_apply.lua")
                + row("… of which the preview's calls", job.total(), 0, r, "bulk_preview.lua");
    }

    private static String row(String phase, long n, long nanos, SlowCalls.Reading r, String script) {
        SlowCalls.Calls c = r.byName().getOrDefault(script, new SlowCalls.Calls(0, 0, 0, 0));
        Map.Entry<String, SlowCalls.Calls> plain = r.longest(false);
        return String.format("| %s | %,d | %s | %,d (`%s`) | %,d | %,d | %.2f ms | %s |%n", phase, n, nanos == 0 ? "–" : String.format("%.1f s", nanos / 1e9),
                c.logged(), script, c.over1ms(), c.over2ms(), c.longestMicros() / 1000.0,
                plain == null ? "–" : String.format("%.2f ms %s", plain.getValue().longestMicros() / 1000.0, plain.getKey()));
    }
}
