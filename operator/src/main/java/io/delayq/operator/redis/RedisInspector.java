package io.delayq.operator.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks a Redis server whether it can lose queue data: its maxmemory-policy (INFO memory) and its
 * persistence (INFO persistence for AOF, CONFIG GET save for RDB snapshots). Managed Redis services
 * and tight ACLs often refuse CONFIG or INFO; a refusal yields "unknown" instead of an error,
 * because the queue works fine without the operator knowing.
 */
public final class RedisInspector {
    private final Duration timeout;

    public RedisInspector(Duration timeout) {
        this.timeout = timeout;
    }

    public RedisFacts inspect(RedisClusterAsyncCommands<String, String> redis) throws TimeoutException, InterruptedException {
        String server = refusable(redis.info("server"));
        String memory = refusable(redis.info("memory"));
        String persistenceInfo = refusable(redis.info("persistence"));
        Map<String, String> save = refusable(redis.configGet("save"));

        String version = field(server, "redis_version");
        String policy = field(memory, "maxmemory_policy");
        boolean aof = "1".equals(field(persistenceInfo, "aof_enabled"));
        String persistence;
        if (save == null) {
            persistence = aof ? "aof" : RedisFacts.UNKNOWN;
        } else {
            boolean rdb = !save.getOrDefault("save", "").isBlank();
            persistence = rdb && aof ? "rdb+aof" : rdb ? "rdb" : aof ? "aof" : "off";
        }
        return new RedisFacts(version, policy, persistence);
    }

    /** The reply, or null when the server refused the command (ACL NOPERM, renamed or disabled command). */
    private <T> T refusable(CompletionStage<T> stage) throws TimeoutException, InterruptedException {
        try {
            return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisCommandExecutionException refused) {
                String message = String.valueOf(refused.getMessage());
                if (message.startsWith("NOPERM") || message.contains("unknown command") || message.startsWith("ERR")) {
                    return null;
                }
            }
            throw new RedisUnavailableException(e.getCause());
        }
    }

    static String field(String info, String name) {
        if (info == null) {
            return RedisFacts.UNKNOWN;
        }
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return RedisFacts.UNKNOWN;
    }
}
