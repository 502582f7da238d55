package io.delayq.console;

import io.delayq.InvalidInputException;
import io.delayq.console.sample.SampleQueue;
import io.delayq.lifecycle.StopSignal;
import io.delayq.localredis.LocalRedisServer;
import io.delayq.redis.RedisEndpoint;

import java.io.PrintStream;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * {@code delayq console}: runs the console until Ctrl-C. With a Redis URL (DELAYQ_REDIS_URL or REDIS_URL)
 * it shows that Redis's queues, read-only unless DELAYQ_CONSOLE_TOKEN is set. Without one it starts a
 * local redis-server, fills a sample queue, and makes up an action token for this run (printed), so
 * that every page and action can be tried on a laptop in one command.
 */
public final class ConsoleLauncher {
    private ConsoleLauncher() {
    }

    /** @return the exit code: 0 after Ctrl-C, 2 for bad settings */
    public static int run(Map<String, String> environment, PrintStream out, PrintStream err) {
        Map<String, String> env = new HashMap<>(environment);
        LocalRedisServer local = null;
        String url = env.getOrDefault("DELAYQ_REDIS_URL", env.get("REDIS_URL"));
        try {
            if (url == null || url.isBlank()) {
                local = LocalRedisServer.start();
                env.put("DELAYQ_REDIS_URL", local.url());
                out.println("No REDIS_URL set: started a local redis-server (" + local.origin() + ") at " + local.url());
                try (RedisEndpoint redis = RedisEndpoint.connect(local.url())) {
                    SampleQueue.Counts n = SampleQueue.fill(redis, 5_000);
                    out.printf("Filled sample queue '%s' (%d shards): %d scheduled, %d due, %d in flight, %d dead%n", SampleQueue.QUEUE,
                            SampleQueue.SHARDS, n.scheduled(), n.due(), n.inflight(), n.dead());
                }
                if (!env.containsKey("DELAYQ_CONSOLE_TOKEN")) {
                    byte[] b = new byte[12];
                    new SecureRandom().nextBytes(b);
                    env.put("DELAYQ_CONSOLE_TOKEN", HexFormat.of().formatHex(b));
                    out.println("Action token for this run: " + env.get("DELAYQ_CONSOLE_TOKEN"));
                }
            }
            ConsoleSettings settings = ConsoleSettings.fromEnv(env);
            try (Console console = Console.start(settings)) {
                out.println("delayq console at " + console.url() + " for Redis " + RedisEndpoint.redact(settings.redisUrl())
                        + (settings.readOnly() ? " (read-only: set DELAYQ_CONSOLE_TOKEN to allow actions)" : " (actions need the token)")
                        + ". Ctrl-C stops it.");
                StopSignal.install().await();
                out.println("Stopping the console.");
            }
            return 0;
        } catch (InvalidInputException e) {
            err.println("delayq console: " + e.getMessage());
            return 2;
        } catch (java.io.IOException e) {
            err.println("delayq console: cannot listen: " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            if (local != null) {
                local.close();
            }
        }
    }
}
