package io.delayq.cli.check;

import io.delayq.cli.CliException;
import io.delayq.cli.QueueConnection;
import io.delayq.layout.DamagedMetaException;
import io.delayq.layout.RecordedLayout;
import io.delayq.queue.QueueProtocol;
import io.delayq.redis.RedisEndpoint;
import io.delayq.redis.Replies;
import io.delayq.script.LuaScript;
import io.delayq.shard.ShardKeyTypes;
import io.delayq.shard.ShardKeys;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The safety checks for a Redis that holds delayq queues. Each check stands alone: one that cannot
 * run (CONFIG disabled on a managed Redis) warns instead of hiding the others.
 */
final class RedisChecks {
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)");

    private final RedisEndpoint redis;
    private final Duration timeout;

    RedisChecks(RedisEndpoint redis, Duration timeout) {
        this.redis = redis;
        this.timeout = timeout;
    }

    /** Connects, or answers null with the failed check added. */
    static RedisEndpoint connect(String url, Duration timeout, List<CheckResult> results) {
        try {
            RedisEndpoint endpoint = QueueConnection.connect(url, timeout);
            results.add(CheckResult.pass("connection", RedisEndpoint.redact(url) + " answers"));
            return endpoint;
        } catch (io.delayq.redis.RedisCredentialsException e) {
            results.add(CheckResult.fail("connection", e.refusal(), e.fix()));
            return null;
        } catch (CliException | io.lettuce.core.RedisException e) {
            String why = e instanceof CliException ? e.getMessage().replaceFirst("^redis: ", "") : e.getMessage();
            results.add(CheckResult.fail("connection", why,
                    "is Redis running and reachable from here? Check host, port, TLS (rediss://) and credentials "
                            + "(user:password in the URL, or DELAYQ_REDIS_USERNAME / DELAYQ_REDIS_PASSWORD)"));
            return null;
        }
    }

    CheckResult version() {
        try {
            Map<String, String> info = info("server");
            String version = info.getOrDefault("redis_version", "?");
            String mode = info.getOrDefault("redis_mode", redis.isCluster() ? "cluster" : "standalone");
            Matcher m = VERSION.matcher(version);
            if (m.find()) {
                int major = Integer.parseInt(m.group(1));
                int minor = Integer.parseInt(m.group(2));
                if (major < 6 || (major == 6 && minor < 2)) {
                    return CheckResult.fail("version", "Redis " + version + " (" + mode + ") is too old",
                            "upgrade to Redis 6.2 or newer: the delayq scripts use ZADD ... LT");
                }
            }
            return CheckResult.pass("version", "Redis " + version + ", " + mode);
        } catch (RuntimeException e) {
            return CheckResult.warn("version", "cannot read INFO server (" + message(e) + ")", "make sure the server is Redis 6.2 or newer");
        }
    }

    CheckResult queue(String queue, Integer shards) {
        if (queue == null) {
            return CheckResult.warn("queue", "no queue given: shard count and protocol not checked", "pass --queue NAME or set DELAYQ_QUEUE");
        }
        java.util.Optional<RecordedLayout> meta;
        try {
            meta = await(RecordedLayout.read(redis.commands(), queue));
        } catch (DamagedMetaException e) {
            return CheckResult.fail("queue", e.getMessage(), "the queue's meta hash was written by something other than delayq: "
                    + "find what wrote it before any worker touches the queue");
        } catch (RuntimeException e) {
            return CheckResult.fail("queue", "cannot read " + ShardKeys.meta(queue) + " (" + message(e) + ")",
                    "the Redis user needs read access to the dq:* keys");
        }
        if (meta.isEmpty()) {
            return CheckResult.warn("queue", "queue '" + queue + "' does not exist in Redis yet (no " + ShardKeys.meta(queue) + ")",
                    "the first worker or enqueue creates it" + (shards == null ? "" : " with " + shards + " shards")
                            + "; if it should exist, check --queue and the Redis URL (database number)");
        }
        String recorded = String.valueOf(meta.get().shards());
        String protocol = String.valueOf(meta.get().protocol());
        if (!protocol.equals(String.valueOf(QueueProtocol.PROTOCOL_VERSION)) && !protocol.equals(String.valueOf(QueueProtocol.BUCKETED))) {
            return CheckResult.fail("queue", "queue '" + queue + "' uses delayq protocol version " + protocol
                            + ", this delayq speaks versions " + QueueProtocol.PROTOCOL_VERSION + " and " + QueueProtocol.BUCKETED,
                    "use the delayq release that matches the queue's workers");
        }
        if (shards != null && !recorded.equals(String.valueOf(shards))) {
            return CheckResult.fail("queue", "queue '" + queue + "' has " + recorded + " shards in Redis, but " + shards + " are configured",
                    "use --shards " + recorded + " (or DELAYQ_SHARDS=" + recorded + "): clients and workers read the queue's layout "
                            + "from Redis, and the count changes only through a reshard (delayq reshard " + queue + " --to N)");
        }
        return CheckResult.pass("queue", "queue '" + queue + "': " + recorded + " shards, protocol " + protocol);
    }

    /** Keys of the queue's shards that hold the wrong type; null when there is no queue to look at. */
    CheckResult keys(String queue) {
        if (queue == null) {
            return null;
        }
        int shards;
        try {
            java.util.Optional<RecordedLayout> recorded = await(RecordedLayout.read(redis.commands(), queue));
            if (recorded.isEmpty()) {
                return null;
            }
            shards = recorded.get().shards();
        } catch (RuntimeException e) {
            return null; // the queue check reports an unreadable meta
        }
        List<String> wrong = new ArrayList<>();
        try {
            for (int shard = 0; shard < shards; shard++) {
                wrong.addAll(await(ShardKeyTypes.problems(redis.commands(), new ShardKeys(queue, shard))));
            }
        } catch (RuntimeException e) {
            return CheckResult.warn("keys", "cannot read the types of the shard keys (" + message(e) + ")",
                    "the Redis user needs TYPE on the dq:* keys");
        }
        if (wrong.isEmpty()) {
            return CheckResult.pass("keys", "every shard key of '" + queue + "' has its type (" + shards + " shards)");
        }
        return CheckResult.fail("keys", String.join("; ", wrong) + ": workers cannot claim from "
                        + (wrong.size() == 1 ? "that shard" : "those shards") + " (its tasks stay untouched)",
                "something other than delayq wrote the key: look at it (TYPE, DUMP), move its data aside (RENAME) "
                        + "and delete it; see docs/protocol.md, \"What the worker refuses\"");
    }

    CheckResult eviction() {
        String policy;
        try {
            policy = config("maxmemory-policy");
        } catch (RuntimeException e) {
            return CheckResult.warn("eviction", "cannot read maxmemory-policy (" + message(e) + ")",
                    "make sure it is noeviction (a managed Redis shows it in its parameter group)");
        }
        String fix = "run CONFIG SET maxmemory-policy noeviction and set 'maxmemory-policy noeviction' in redis.conf "
                + "(or the provider's parameter group)";
        if ("noeviction".equals(policy)) {
            return CheckResult.pass("eviction", "maxmemory-policy is noeviction");
        }
        if (policy != null && policy.startsWith("volatile")) {
            return CheckResult.warn("eviction", "maxmemory-policy is " + policy + ": queue keys have no TTL and stay, but the short-lived "
                    + "claim keys that make a re-sent claim safe can be evicted", fix);
        }
        return CheckResult.fail("eviction", "maxmemory-policy is " + policy + ": when memory runs full Redis deletes queue keys, "
                + "and scheduled tasks vanish without a trace", fix);
    }

    CheckResult persistence() {
        String aof;
        String save;
        try {
            aof = config("appendonly");
            save = config("save");
        } catch (RuntimeException e) {
            return CheckResult.warn("persistence", "cannot read appendonly / save (" + message(e) + ")",
                    "make sure AOF or RDB snapshots are on, or a restart loses every scheduled task");
        }
        if ("yes".equalsIgnoreCase(aof)) {
            String fsync = configOrNull("appendfsync");
            return CheckResult.pass("persistence", "AOF on" + (fsync == null ? "" : " (appendfsync " + fsync + ")"));
        }
        if (save != null && !save.isBlank()) {
            return CheckResult.pass("persistence", "RDB snapshots on (save " + save.trim() + "); a crash loses the writes since the "
                    + "last snapshot - AOF (appendonly yes) loses at most a second");
        }
        String fix = "run CONFIG SET appendonly yes and set 'appendonly yes' in redis.conf (or RDB 'save' rules): "
                + "without persistence a restart loses every scheduled task";
        long replicas = replicas();
        if (replicas > 0) {
            return CheckResult.warn("persistence", "AOF and RDB are off on this node; the data survives only on its " + replicas
                    + " replica(s)", fix);
        }
        return CheckResult.fail("persistence", "AOF and RDB snapshots are both off", fix);
    }

    CheckResult scripts() {
        List<String> failed = new ArrayList<>();
        for (LuaScript s : LuaScript.values()) {
            try {
                String sha = await(redis.commands().scriptLoad(s.source()));
                if (!s.sha().equalsIgnoreCase(sha)) {
                    failed.add(s.fileName() + " (Redis answered SHA " + sha + ", expected " + s.sha() + ")");
                }
            } catch (RuntimeException e) {
                failed.add(s.fileName() + " (" + message(e) + ")");
            }
        }
        if (failed.isEmpty()) {
            return CheckResult.pass("scripts", "all " + LuaScript.values().length + " scripts load (SCRIPT LOAD)");
        }
        return CheckResult.fail("scripts", "cannot load " + String.join(", ", failed),
                "the Redis user needs EVAL, EVALSHA and SCRIPT LOAD (ACL +@scripting), and Lua must be enabled");
    }

    private long replicas() {
        try {
            return Long.parseLong(info("replication").getOrDefault("connected_slaves", "0"));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private Map<String, String> info(String section) {
        Map<String, String> out = new java.util.HashMap<>();
        for (String line : await(redis.commands().info(section)).split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                out.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return out;
    }

    private String config(String name) {
        Map<String, String> values = await(redis.commands().configGet(name));
        if (!values.containsKey(name)) {
            throw new IllegalStateException("CONFIG GET " + name + " returned nothing");
        }
        return values.get(name);
    }

    private String configOrNull(String name) {
        try {
            return config(name);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private <T> T await(CompletionStage<T> stage) {
        return Replies.await(stage, timeout);
    }

    private static String message(Throwable e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.replaceAll("\\s+", " ").trim();
    }
}
