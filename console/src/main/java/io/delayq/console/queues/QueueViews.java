package io.delayq.console.queues;

import io.delayq.backlog.QueueStats;
import io.delayq.backlog.ShardStats;
import io.delayq.client.DelayQueueClient;
import io.delayq.console.history.BacklogHistory;
import io.delayq.console.history.Sample;
import io.delayq.pause.PauseState;
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
        for (String name : queues.names()) {
            DelayQueueClient c = queues.client(name);
            QueueStats stats = c.stats();
            PauseState pause = c.pauseState();
            Map<String, Object> row = totals(name, c.protocol().shards(), stats, pause);
            row.put("history", history(name));
            rows.add(row);
            now = Math.max(now, stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("redis", queues.redis().toString());
        out.put("serverTime", now);
        out.put("historyWindowMs", history.windowMs());
        out.put("queues", rows);
        return out;
    }

    private static Map<String, Object> totals(String name, int shards, QueueStats stats, PauseState pause) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", name);
        row.put("shards", shards);
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

    private List<long[]> history(String name) {
        List<long[]> points = new ArrayList<>();
        for (Sample s : history.of(name)) {
            points.add(new long[]{s.at(), s.due(), s.oldestOverdueMs(), s.scheduled(), s.inflight(), s.dead()});
        }
        return points;
    }

    /** One queue: totals, the history, and per shard its backlog, pause flag, leases held and rate-limit bucket. */
    public Map<String, Object> queue(String name) {
        DelayQueueClient c = queues.client(name);
        QueueStats stats = c.stats();
        PauseState pause = c.pauseState();
        Map<String, Object> out = totals(name, c.protocol().shards(), stats, pause);
        out.put("history", history(name));
        out.put("historyWindowMs", history.windowMs());
        out.put("serverTime", stats.shards().stream().mapToLong(ShardStats::serverNow).max().orElse(0));
        RedisClusterAsyncCommands<String, String> redis = queues.redis().commands();
        List<CompletableFuture<List<ScoredValue<String>>>> leases = new ArrayList<>();
        List<CompletableFuture<List<KeyValue<String, String>>>> rates = new ArrayList<>();
        for (ShardStats s : stats.shards()) {
            ShardKeys k = c.protocol().keys(s.shard());
            leases.add(redis.zrangeWithScores(k.inflight(), 0, 0).toCompletableFuture());
            rates.add(redis.hmget(k.rate(), "tokens", "at").toCompletableFuture());
        }
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
