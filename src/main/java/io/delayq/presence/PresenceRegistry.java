package io.delayq.presence;

import io.delayq.redis.Replies;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delayq.redis.RedisEndpoint;
import io.delayq.script.LuaScript;
import io.delayq.script.ScriptRunner;
import io.delayq.shard.ShardRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The workers of a queue that said recently that they are alive: which shards each owns, its version,
 * when it started. Workers write it (worker_beat.lua on a timer, an HDEL of their own entry when they
 * stop); the console and the CLI read it. It is advisory: claims never read it, so a registry that is
 * lost or stale changes nothing about delivery.
 */
public final class PresenceRegistry {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RedisEndpoint redis;
    private final ScriptRunner scripts;
    private final String key;
    private final String heldKey;
    private final Duration timeout;

    /** Most leases one heartbeat reports; a worker holding more reports the count and this many ids. */
    public static final int MAX_REPORTED_LEASES = 200;

    /** One lease a worker reported: the task and the fencing token (the in-flight score) it holds it with. */
    public record HeldLease(String taskId, long token) {
    }

    public PresenceRegistry(RedisEndpoint redis, String queue, Duration timeout) {
        this.redis = redis;
        this.scripts = new ScriptRunner(redis.commands());
        this.key = key(queue);
        this.heldKey = key + ":held";
        this.timeout = timeout;
    }

    /** {@code dq:{q}:workers}: the queue's own hash tag, the slot of its meta hash. */
    public static String key(String queue) {
        return "dq:{" + queue + "}:workers";
    }

    /** {@code dq:{q}:workers:held}: per worker, the leases it held at its latest heartbeat. */
    public static String heldKey(String queue) {
        return key(queue) + ":held";
    }

    /** Writes (or refreshes) one worker's entry and the leases it holds; answers the Redis time of the heartbeat. */
    public long beat(String id, ShardRange shards, String version, String host, Duration ttl, int heldTotal, List<HeldLease> held) {
        return beat(id, shards, version, host, ttl, heldTotal, held, -1);
    }

    /** As above, with the deliveries the worker settled since it started ({@link WorkerPresence#delivered}). */
    public long beat(String id, ShardRange shards, String version, String host, Duration ttl, int heldTotal, List<HeldLease> held,
                     long delivered) {
        return Replies.await(beatAsync(id, shards, version, host, ttl, heldTotal, held, delivered), timeout);
    }

    /** As {@link #beat}, without waiting: a timer thread shared with lease renewals must not block on Redis. */
    public java.util.concurrent.CompletionStage<Long> beatAsync(String id, ShardRange shards, String version, String host, Duration ttl,
                                                              int heldTotal, List<HeldLease> held, long delivered) {
        ObjectNode n = JSON.createObjectNode().put("id", id).put("shardFrom", shards.from()).put("shardTo", shards.to())
                .put("version", version).put("host", host).put("held", heldTotal);
        if (delivered >= 0) {
            n.put("delivered", delivered);
        }
        var leases = JSON.createArrayNode();
        held.stream().limit(MAX_REPORTED_LEASES).forEach(h -> leases.addArray().add(h.taskId()).add(h.token()));
        return scripts.<List<Object>>run(LuaScript.WORKER_BEAT, List.of(key, heldKey),
                List.of(id, n.toString(), Long.toString(ttl.toMillis()), leases.isEmpty() ? "" : leases.toString())).thenApply(r -> (Long) r.get(0));
    }

    /** Removes one worker's entries (a clean stop); waits at most 2 s: if Redis is away, the TTL removes them. */
    public void leave(String id) {
        Duration wait = timeout.compareTo(Duration.ofSeconds(2)) < 0 ? timeout : Duration.ofSeconds(2);
        var a = redis.commands().hdel(key, id).toCompletableFuture();
        var b = redis.commands().hdel(heldKey, id).toCompletableFuture();
        Replies.await(java.util.concurrent.CompletableFuture.allOf(a, b), wait);
    }

    /** The leases the given workers reported at their latest heartbeat, by worker id (absent: none reported). */
    public Map<String, List<HeldLease>> held(List<String> workerIds) {
        Map<String, List<HeldLease>> out = new java.util.LinkedHashMap<>();
        if (workerIds.isEmpty()) {
            return out;
        }
        List<io.lettuce.core.KeyValue<String, String>> values = Replies.await(
                redis.commands().hmget(heldKey, workerIds.toArray(String[]::new)), timeout);
        for (io.lettuce.core.KeyValue<String, String> kv : values) {
            if (!kv.hasValue()) {
                continue;
            }
            List<HeldLease> leases = new ArrayList<>();
            try {
                for (JsonNode pair : JSON.readTree(kv.getValue())) {
                    leases.add(new HeldLease(pair.path(0).asText(), pair.path(1).asLong()));
                }
            } catch (java.io.IOException e) {
                continue;
            }
            out.put(kv.getKey(), leases);
        }
        return out;
    }

    /** The workers alive at Redis time {@code now}, by first shard then id; malformed entries are skipped. */
    public List<WorkerPresence> alive(long now) {
        Map<String, String> all = Replies.await(redis.commands().hgetall(key), timeout);
        List<WorkerPresence> out = new ArrayList<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            WorkerPresence w = parse(e.getKey(), e.getValue());
            if (w != null && w.aliveAt(now)) {
                out.add(w);
            }
        }
        out.sort(Comparator.comparingInt((WorkerPresence w) -> w.shards().from()).thenComparing(WorkerPresence::id));
        return out;
    }

    static WorkerPresence parse(String id, String raw) {
        try {
            String[] parts = raw.split("\\|", 4);
            JsonNode j = JSON.readTree(parts[3]);
            return new WorkerPresence(id, new ShardRange(j.path("shardFrom").asInt(), j.path("shardTo").asInt()), j.path("version").asText(""),
                    j.path("host").asText(""), Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]), j.path("held").asInt(),
                    j.path("delivered").asLong(-1));
        } catch (RuntimeException | java.io.IOException e) {
            // an entry written by hand or by a future version: not shown, never fatal
            return null;
        }
    }
}
