package io.delayq.app.local;

import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.WorkerSettings;

import java.io.PrintStream;
import java.util.Map;

/**
 * The Redis of a one-command local run ({@code delayq demo}, {@code delayq console}): the one
 * DELAYQ_REDIS_URL or REDIS_URL names, else a real redis-server started for this run and stopped
 * when the run closes it. Either way the run says which one it uses.
 */
public final class LocalRedis implements AutoCloseable {
    private final String url;
    private final LocalRedisServer started;

    private LocalRedis(String url, LocalRedisServer started) {
        this.url = url;
        this.started = started;
    }

    public static LocalRedis fromEnv(Map<String, String> env, PrintStream out) {
        String url = configuredUrl(env);
        if (url != null) {
            out.println("Using Redis at " + RedisEndpoint.redact(url) + " (from REDIS_URL)");
            return new LocalRedis(url, null);
        }
        LocalRedisServer server = LocalRedisServer.start();
        out.println("No REDIS_URL set: started a local redis-server (" + server.origin() + ") at " + server.url());
        return new LocalRedis(server.url(), server);
    }

    /** @return DELAYQ_REDIS_URL, else REDIS_URL, else null when neither is set to something */
    public static String configuredUrl(Map<String, String> env) {
        String url = env.getOrDefault(WorkerSettings.REDIS_URL.name(), env.get(WorkerSettings.REDIS_URL_FALLBACK.name()));
        return url == null || url.isBlank() ? null : url;
    }

    public String url() {
        return url;
    }

    /** @return whether this run started the redis-server (so it may fill it with sample data) */
    public boolean startedHere() {
        return started != null;
    }

    @Override
    public void close() {
        if (started != null) {
            started.close();
        }
    }
}
