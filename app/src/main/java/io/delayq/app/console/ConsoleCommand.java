package io.delayq.app.console;

import io.delayq.settings.ConsoleVariables;
import io.delayq.InvalidInputException;
import io.delayq.app.local.FreePort;
import io.delayq.app.local.LocalRedis;
import io.delayq.console.Console;
import io.delayq.console.ConsoleSettings;
import io.delayq.console.sample.SampleQueue;
import io.delayq.lifecycle.StopSignal;
import io.delayq.redis.RedisCredentialsException;
import io.delayq.redis.RedisEndpoint;
import io.delayq.settings.WorkerSettings;

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
public final class ConsoleCommand {
    static final int SAMPLE_TASKS = 5_000;

    private ConsoleCommand() {
    }

    /** @return the exit code: 0 after Ctrl-C, 2 for bad settings or a port that is taken, 3 when Redis refuses the credentials */
    public static int run(Map<String, String> environment, PrintStream out, PrintStream err) {
        Map<String, String> env = new HashMap<>(environment);
        try {
            // every setting but the Redis URL is checked before a local Redis is started and filled
            ConsoleSettings asked = ConsoleSettings.fromEnv(withUrl(env,
                    java.util.Objects.requireNonNullElse(LocalRedis.configuredUrl(env), "redis://127.0.0.1:6379")));
            String taken = FreePort.problem(asked.host(), asked.port());
            if (taken != null) {
                err.println("delayq console: cannot listen on " + asked.host() + ":" + asked.port() + " (" + taken
                        + "): is another console running? Choose another port with --port or DELAYQ_CONSOLE_PORT (0 = any free port).");
                return 2;
            }
            try (LocalRedis redis = LocalRedis.fromEnv(env, out)) {
                if (redis.startedHere()) {
                    fillSample(redis.url(), env, out);
                }
                return serve(ConsoleSettings.fromEnv(withUrl(env, redis.url())), out);
            }
        } catch (InvalidInputException e) {
            err.println("delayq console: " + e.getMessage());
            return 2;
        } catch (RedisCredentialsException e) {
            err.println("delayq console: " + e.getMessage());
            return 3;
        } catch (java.io.IOException e) {
            err.println("delayq console: cannot listen: " + e.getMessage() + ". Choose another port with --port or DELAYQ_CONSOLE_PORT.");
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    private static int serve(ConsoleSettings settings, PrintStream out) throws java.io.IOException, InterruptedException {
        try (Console console = Console.start(settings)) {
            out.println("delayq console at " + console.url() + " for Redis " + RedisEndpoint.redact(settings.redisUrl())
                    + (settings.readOnly() ? " (read-only: set DELAYQ_CONSOLE_TOKEN to allow actions)" : " (actions need the token)")
                    + ". Ctrl-C stops it.");
            StopSignal.install().await();
            out.println("Stopping the console.");
        }
        return 0;
    }

    /** A Redis started for this run gets a sample queue, and the run an action token unless one was given. */
    private static void fillSample(String url, Map<String, String> env, PrintStream out) {
        try (RedisEndpoint redis = RedisEndpoint.connect(url)) {
            SampleQueue.Counts n = SampleQueue.fill(redis, SAMPLE_TASKS);
            out.printf("Filled sample queue '%s' (%d shards): %d scheduled, %d due, %d in flight, %d dead%n", SampleQueue.QUEUE,
                    SampleQueue.SHARDS, n.scheduled(), n.due(), n.inflight(), n.dead());
        }
        if (!env.containsKey(ConsoleVariables.TOKEN.name())) {
            byte[] b = new byte[12];
            new SecureRandom().nextBytes(b);
            env.put(ConsoleVariables.TOKEN.name(), HexFormat.of().formatHex(b));
            out.println("Action token for this run: " + env.get(ConsoleVariables.TOKEN.name()));
        }
    }

    private static Map<String, String> withUrl(Map<String, String> env, String url) {
        Map<String, String> copy = new HashMap<>(env);
        copy.put(WorkerSettings.REDIS_URL.name(), url);
        return copy;
    }
}
