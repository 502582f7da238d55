package io.delayq.cli.backlog;

import io.delayq.backlog.DueForecast;
import io.delayq.backlog.DueWindow;
import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.DurationText;
import io.delayq.cli.text.Instants;
import io.delayq.cli.text.Table;
import io.delayq.layout.Layout;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The backlog as a table (per shard and total) or as a JSON document, with the due forecast beside it. */
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

    record ShardJson(int shard, long scheduled, long dueNow, long inFlight, long dead, long oldestOverdueMillis, ForecastJson forecast) {
    }

    /**
     * The due forecast: {@code dueWithin} maps each window ({@code 1m}, {@code 5m}, {@code 15m}, {@code 1h}) to the
     * waiting tasks due within it from {@code serverTime}; {@code nextDue} and {@code nextDueInMillis} are null while
     * nothing waits for a future time.
     */
    record ForecastJson(String serverTime, Map<String, Long> dueWithin, String nextDue, Long nextDueInMillis) {
        static ForecastJson of(DueForecast f) {
            Map<String, Long> within = f.windows().stream()
                    .collect(Collectors.toMap(w -> DurationText.format(w.length()), DueWindow::tasks, (a, b) -> a, LinkedHashMap::new));
            return new ForecastJson(Instants.utc(f.at()), within, f.nextDueAt() < 0 ? null : Instants.utc(f.nextDueAt()),
                    f.nextDueAt() < 0 ? null : f.nextDueAt() - f.at());
        }
    }

    /** The queue's layout: {@code migratingFrom} is 0 outside a migration; {@code left} -1 when not measured yet. */
    record LayoutJson(long epoch, int shards, int migratingFrom, List<Integer> history, long moved, long left) {
        static LayoutJson of(Layout l) {
            return new LayoutJson(l.epoch(), l.shards(), l.from(), l.history(), l.moved(), l.migrating() ? l.left() : 0);
        }
    }

    record StatsJson(String queue, int shards, String serverTime, int pausedShards, Counts total, ForecastJson forecast,
                     List<ShardJson> perShard, LayoutJson layout) {
    }

    static long serverNow(QueueStats stats) {
        return stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0);
    }

    /** @param forecasts the due forecast of each shard of {@code stats}, in the same order */
    static StatsJson json(QueueStats stats, List<DueForecast> forecasts, int shards, Layout layout) {
        List<ShardStats> counts = stats.shards();
        List<ShardJson> per = new ArrayList<>(counts.size());
        for (int i = 0; i < counts.size(); i++) {
            ShardStats s = counts.get(i);
            per.add(new ShardJson(s.shard(), s.scheduled(), s.due(), s.inflight(), s.dead(), s.oldestOverdueMillis(),
                    ForecastJson.of(forecasts.get(i))));
        }
        return new StatsJson(stats.queue(), shards, Instants.utc(serverNow(stats)), stats.pausedShards(), Counts.of(stats),
                ForecastJson.of(DueForecast.combine(forecasts)), per, LayoutJson.of(layout));
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

    /**
     * The queue's due forecast under the backlog table, e.g. {@code forecast: due within 1m 12, 5m 40, 15m 40, 1h 310;
     * next due 2026-12-03T10:15:30.250Z (in 25s)}: what the due column will hold next, before it is due.
     */
    static void forecast(PrintWriter out, DueForecast f) {
        String within = f.windows().stream().map(w -> DurationText.format(w.length()) + " " + w.tasks())
                .collect(Collectors.joining(", "));
        String next = f.nextDue().isPresent()
                ? "next due " + Instants.utc(f.nextDueAt()) + " (" + DurationText.relative(f.nextDueAt(), f.at()) + ")"
                : "nothing waits for a future time";
        out.println("forecast: due within " + within + "; " + next);
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
