package io.delayq.script;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Runs a {@link Script} by SHA. When Redis answers NOSCRIPT (a restart, a failover, SCRIPT
 * FLUSH) the script is sent once in full with EVAL, which also caches it again on that node.
 */
public final class ScriptRunner {
    private static final Executor FALLBACK = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "delayq-script-reload");
        t.setDaemon(true);
        return t;
    });
    private final RedisClusterAsyncCommands<String, String> redis;

    public ScriptRunner(RedisClusterAsyncCommands<String, String> redis) {
        this.redis = redis;
    }

    public <T> CompletionStage<T> run(Script script, List<String> keys, List<String> args) {
        String[] k = keys.toArray(String[]::new);
        String[] a = args.toArray(String[]::new);
        CompletableFuture<T> bySha = redis.<T>evalsha(script.sha(), script.outputType(), k, a).toCompletableFuture();
        return bySha.handle((value, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(value);
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            if (cause instanceof RedisNoScriptException) {
                // sent from a thread of our own: issuing a command inside a Lettuce callback while the
                // connection reconnects can wedge Lettuce's connection lock
                return CompletableFuture.supplyAsync(() -> redis.<T>eval(script.source(), script.outputType(), k, a), FALLBACK)
                        .thenCompose(f -> f.toCompletableFuture());
            }
            return CompletableFuture.<T>failedFuture(cause);
        }).thenCompose(f -> f);
    }

    /** Loads every script into the script cache of the node(s) behind this connection. */
    public CompletionStage<Void> loadAll() {
        CompletableFuture<?>[] loads = new CompletableFuture<?>[LuaScript.values().length];
        int i = 0;
        for (LuaScript s : LuaScript.values()) {
            loads[i++] = redis.scriptLoad(s.source()).toCompletableFuture();
        }
        return CompletableFuture.allOf(loads);
    }
}
