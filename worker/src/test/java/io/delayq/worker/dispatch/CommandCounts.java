package io.delayq.worker.dispatch;

import io.delayq.testing.TestQueue;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code INFO commandstats} calls per command (commands inside Lua scripts included), for tests that count work. */
public final class CommandCounts {
    private static final Pattern LINE = Pattern.compile("cmdstat_([^:]+):calls=(\\d+)");

    private CommandCounts() {
    }

    public static Map<String, Long> of(RedisClusterAsyncCommands<String, String> redis) {
        Map<String, Long> calls = new HashMap<>();
        Matcher m = LINE.matcher(TestQueue.get(redis.info("commandstats")));
        while (m.find()) {
            calls.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return calls;
    }

    /** Calls from {@code before} to {@code after}, without the INFO calls that read them. */
    public static long delta(Map<String, Long> before, Map<String, Long> after) {
        long n = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            if (!e.getKey().equals("info")) {
                n += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
        }
        return n;
    }
}
