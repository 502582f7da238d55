package io.delayq.console.queues;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.forecast.NextHour;
import io.delayq.console.history.BacklogHistory;
import io.delayq.console.history.Sample;
import io.delayq.layout.Layout;
import io.delayq.pause.PauseState;
import io.delayq.presence.PresenceRegistry;
import io.delayq.presence.WorkerPresence;
import io.delayq.redis.Replies;
import io.delayq.shard.ShardKeys;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The JSON of the all-queues page and of one queue's page. */
public final class QueueViews {
    private final QueueDirectory queues;
    private final BacklogHistory history;
    private final Duration timeout;

    public QueueViews(QueueDirectory queues, BacklogHistory history, Duration timeout) {
        this.queues = queues;
        this.history = history;
        this.timeout = timeout;
    }

    public Map<String, Object> overview() {
        List<Map<String, Object>> rows = new ArrayList<>();
        long now = 0;
        QueueDirectory.Listing listing = queues.listing();
        for (String name : listing.names()) {
            try {
                Layout layout = queues.layout(name);
                DelayQueueClient c = queues.client(name);
                QueueStats stats = c.stats();
                PauseState pause = c.pauseState();
                Map<String, Object> row = totals(name, layout, stats, pause);
                row.putAll(NextHour.summary(c, layout.shards(), timeout));
                row.put("history", history(name));
                rows.add(row);
                now = Math.max(now, stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0));
            } catch (RuntimeException e) {
                // one broken queue (a hand-edited meta, a key of the wrong type) is shown as such, the others as usual
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", name);
                row.put("error", e instanceof io.delayq.console.http.ApiException || e instanceof io.delayq.DelayQueueException
                        || e instanceof io.lettuce.core.RedisException ? e.getMessage() : "internal error (logged by the console)");
                row.put("history", history(name));
                rows.add(row);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("redis", queues.redis().toString());
        out.put("serverTime", now);
        out.put("historyWindowMs", history.windowMs());
        out.put("queues", rows);
        out.put("truncated", listing.truncated());
        out.put("truncatedWhy", listing.why());
        return out;
    }

    private static Map<String, Object> totals(String name, Layout layout, QueueStats stats, PauseState pause) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("shards", layout.shards());
        row.put("reshard", reshard(layout));
        row.put("scheduled", stats.scheduled());
        row.put("due", stats.due());
        row.put("inflight", stats.inflight());
        row.put("dead", stats.dead());
        row.put("oldestOverdueMs", stats.oldestOverdueMillis());
        row.put("paused", pause.paused());
        row.put("pausedAt", pause.pausedAt());
        row.put("pausedBy", pause.by());
        row.put("pausedShards", stats.pausedShards());
        return row;
    }

    /**
     * A reshard in progress as the meta hash records it (null when none runs): the counts it grows from and to, the
     * layout epoch, and the mover's progress: tasks moved so far and its estimate of what is still to look at or
     * move ({@code left} -1 until the mover first measured it). The mover records progress at most once a second
     * and at the end of each pass, so the figures may be that old, or older when no mover runs (stopped or crashed:
     * the next one resumes from Redis).
     */
    static Map<String, Object> reshard(Layout layout) {
        if (!layout.migrating()) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", layout.from());
        m.put("to", layout.shards());
        m.put("epoch", layout.epoch());
        m.put("moved", layout.moved());
        m.put("left", layout.left());
        return m;
    }

    static Map<String, Object> worker(WorkerPresence w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", w.id());
        m.put("host", w.host());
        m.put("shardFrom", w.shards().from());
        m.put("shardTo", w.shards().to());
        m.put("version", w.version());
        m.put("startedAt", w.startedAt());
        m.put("heartbeatAt", w.heartbeatAt());
        m.put("ttlMs", w.ttlMs());
        m.put("held", w.held());
        return m;
    }

    private List<long[]> history(String name) {
        List<long[]> points = new ArrayList<>();
        for (Sample s : history.of(name)) {
            points.add(new long[]{s.at(), s.due(), s.oldestOverdueMs(), s.scheduled(), s.inflight(), s.dead()});
        }
        return points;
    }

    /** One queue: totals, the history, the next hour's forecast, and per shard its backlog, pause flag, leases held and rate-limit bucket. */
    public Map<String, Object> queue(String name) {
        Layout layout = queues.layout(name);
        DelayQueueClient c = queues.client(name);
        QueueStats stats = c.stats();
        PauseState pause = c.pauseState();
        Map<String, Object> out = totals(name, layout, stats, pause);
        out.put("history", history(name));
        out.put("historyWindowMs", history.windowMs());
        out.put("forecast", NextHour.read(c, layout.shards(), timeout));
        out.put("serverTime", stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0));
        RedisClusterAsyncCommands<String, String> redis = queues.redis().commands();
        List<CompletableFuture<List<ScoredValue<String>>>> leases = new ArrayList<>();
        List<CompletableFuture<List<KeyValue<String, String>>>> rates = new ArrayList<>();
        for (ShardStats s : stats.shards()) {
            ShardKeys k = c.protocol().keys(s.shard());
            leases.add(redis.zrangeWithScores(k.inflight(), 0, 0).toCompletableFuture());
            rates.add(redis.hmget(k.rate(), "tokens", "at").toCompletableFuture());
        }
        long serverNow = stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0);
        List<WorkerPresence> workers = new PresenceRegistry(queues.redis(), name, timeout).alive(serverNow);
        out.put("workers", workers.stream().map(QueueViews::worker).toList());
        List<Map<String, Object>> shards = new ArrayList<>();
        for (int i = 0; i < stats.shards().size(); i++) {
            ShardStats s = stats.shards().get(i);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("shard", s.shard());
            row.put("scheduled", s.scheduled());
            row.put("due", s.due());
            row.put("inflight", s.inflight());
            row.put("dead", s.dead());
            row.put("oldestOverdueMs", s.oldestOverdueMillis());
            row.put("paused", s.paused());
            row.put("workers", workers.stream().filter(w -> w.owns(s.shard())).map(WorkerPresence::id).toList());
            List<ScoredValue<String>> first = Replies.await(leases.get(i), timeout);
            row.put("nextLeaseExpiry", first.isEmpty() ? -1 : (long) first.get(0).getScore());
            List<KeyValue<String, String>> bucket = Replies.await(rates.get(i), timeout);
            row.put("rateTokens", bucket.get(0).hasValue() ? bucket.get(0).getValue() : null);
            row.put("rateAt", bucket.get(1).hasValue() ? Long.parseLong(bucket.get(1).getValue()) : -1);
            shards.add(row);
        }
        out.put("shardTable", shards);
        return out;
    }
}
