package io.delayq.cli.backlog;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.DurationText;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.Table;
import io.delayq.layout.Layout;

import java.io.PrintWriter;
import java.util.List;

/** The backlog as a table (per shard and total) or as a JSON document. */
final class StatsView {
    private StatsView() {
    }

    record Counts(long scheduled, long dueNow, long inFlight, long dead, long oldestOverdueMillis) {
        static Counts of(ShardStats s) {
            return new Counts(s.scheduled(), s.due(), s.inflight(), s.dead(), s.oldestOverdueMillis());
        }

        static Counts of(QueueStats q) {
            return new Counts(q.scheduled(), q.due(), q.inflight(), q.dead(), q.oldestOverdueMillis());
        }
    }

    record ShardJson(int shard, long scheduled, long dueNow, long inFlight, long dead, long oldestOverdueMillis) {
    }

    /** The queue's layout: {@code migratingFrom} is 0 outside a migration; {@code left} -1 when not measured yet. */
    record LayoutJson(long epoch, int shards, int migratingFrom, List<Integer> history, long moved, long left) {
        static LayoutJson of(Layout l) {
            return new LayoutJson(l.epoch(), l.shards(), l.from(), l.history(), l.moved(), l.migrating() ? l.left() : 0);
        }
    }

    record StatsJson(String queue, int shards, String serverTime, int pausedShards, Counts total, List<ShardJson> perShard,
                     LayoutJson layout) {
    }

    static long serverNow(QueueStats stats) {
        return stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0);
    }

    static StatsJson json(QueueStats stats, int shards, Layout layout) {
        List<ShardJson> per = stats.shards().stream()
                .map(s -> new ShardJson(s.shard(), s.scheduled(), s.due(), s.inflight(), s.dead(), s.oldestOverdueMillis()))
                .toList();
        return new StatsJson(stats.queue(), shards, Instants.utc(serverNow(stats)), stats.pausedShards(), Counts.of(stats), per,
                LayoutJson.of(layout));
    }

    static void table(PrintWriter out, QueueStats stats, int shards, String redis) {
        out.println("queue " + stats.queue() + " (" + shards + " shards) at " + redis + ", server time " + Instants.utc(serverNow(stats)));
        Table t = new Table(List.of("SHARD", "SCHEDULED", "DUE NOW", "IN FLIGHT", "DEAD", "OLDEST OVERDUE"),
                false, true, true, true, true, true);
        for (ShardStats s : stats.shards()) {
            t.row(s.shard(), s.scheduled(), s.due(), s.inflight(), s.dead(), age(s.oldestOverdueMillis()));
        }
        t.row("total", stats.scheduled(), stats.due(), stats.inflight(), stats.dead(), age(stats.oldestOverdueMillis()));
        t.print(out);
        if (stats.pausedShards() > 0) {
            out.println("PAUSED: " + stats.pausedShards() + " of " + stats.shards().size() + " shards hand out no task ('delayq resume' restarts them)");
        }
    }

    /** While a migration runs: both layouts and its progress (the table above covers every shard of the new one). */
    static void layout(PrintWriter out, Layout l) {
        if (l.migrating()) {
            out.println("RESHARDING: old layout " + l.from() + " shards (0.." + (l.from() - 1) + "), new layout " + l.shards()
                    + " shards (0.." + (l.shards() - 1) + "), epoch " + l.epoch() + "; moved " + l.moved() + ", left "
                    + (l.left() < 0 ? "not measured yet" : "~" + l.left()) + " ('delayq reshard " + "<queue> --to " + l.shards()
                    + "' drives it, and resumes it)");
        } else if (l.history().size() > 1) {
            out.println("layout epoch " + l.epoch() + ", shard counts so far " + l.history());
        }
    }

    private static String age(long ms) {
        return ms <= 0 ? "-" : DurationText.human(ms);
    }
}
