package io.delayq.bench;

import io.delayq.script.LuaScript;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The longest single calls Redis served in a phase, from its own logs: SLOWLOG (every call of
 * {@code thresholdMicros} or more, named by script file for EVALSHA) and the latency monitor's
 * {@code command} / {@code fast-command} events (LATENCY LATEST, in ms; it cannot tell the harness's own
 * commands apart, the SLOWLOG reading leaves them out). A plain command such as HGET does
 * no scripted work, so its longest call shows how long the machine itself kept Redis from running.
 */
final class SlowCalls implements AutoCloseable {
    /** One command's calls in the SLOWLOG: how many were logged, how many took over 1 ms and 2 ms, the longest. */
    record Calls(long logged, long over1ms, long over2ms, long longestMicros) {
    }

    /** A phase's reading: per command name (scripts by file name), and the latency monitor's worst per event (ms). */
    record Reading(Map<String, Calls> byName, Map<String, Long> latencyMaxMillis) {
        /** The longest call among scripts (names ending in .lua), or among plain commands. */
        Map.Entry<String, Calls> longest(boolean scripts) {
            return byName.entrySet().stream().filter(e -> e.getKey().endsWith(".lua") == scripts)
                    .max(Map.Entry.comparingByValue(java.util.Comparator.comparingLong(Calls::longestMicros))).orElse(null);
        }

        long over(int millis, boolean scripts) {
            return byName.entrySet().stream().filter(e -> e.getKey().endsWith(".lua") == scripts)
                    .mapToLong(e -> millis == 1 ? e.getValue().over1ms() : e.getValue().over2ms()).sum();
        }
    }

    /** Lettuce has no constant for LATENCY. */
    private static final ProtocolKeyword LATENCY = new ProtocolKeyword() {
        @Override
        public byte[] getBytes() {
            return "LATENCY".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }

        @Override
        public String toString() {
            return "LATENCY";
        }
    };

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final Map<String, String> scriptNames = new HashMap<>();

    SlowCalls(String url, int thresholdMicros) {
        this.client = RedisClient.create(url);
        this.connection = client.connect();
        this.redis = connection.sync();
        redis.configSet("slowlog-log-slower-than", String.valueOf(thresholdMicros));
        redis.configSet("slowlog-max-len", "200000");
        redis.configSet("latency-monitor-threshold", "1");
        for (LuaScript s : LuaScript.values()) {
            scriptNames.put(s.sha(), s.fileName());
        }
    }

    /** Forgets what was logged so far: the next {@link #read} covers the phase that starts now. */
    void reset() {
        redis.slowlogReset();
        redis.dispatch(LATENCY, new NestedMultiOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).add("RESET"));
    }

    /** The harness's own commands (reading these logs, INFO, CONFIG) are left out of a reading. */
    private static final java.util.Set<String> OWN = java.util.Set.of("slowlog", "latency", "info", "config", "client", "hello", "ping");

    Reading read() {
        // the latency monitor first: the SLOWLOG GET below is itself a long command
        Map<String, Long> latency = new TreeMap<>();
        List<Object> latest = redis.dispatch(LATENCY, new NestedMultiOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("LATEST"));
        for (Object e : latest) {
            List<?> ev = (List<?>) e; // event, time, latest ms, max ms
            latency.put(String.valueOf(ev.get(0)), ((Number) ev.get(3)).longValue());
        }
        Map<String, long[]> agg = new TreeMap<>();
        for (Object e : redis.slowlogGet(200_000)) {
            List<?> entry = (List<?>) e;
            long micros = ((Number) entry.get(2)).longValue();
            List<?> argv = (List<?>) entry.get(3);
            String command = String.valueOf(argv.get(0)).toLowerCase(java.util.Locale.ROOT);
            if (OWN.contains(command)) {
                continue;
            }
            String name = command.equals("evalsha") && argv.size() > 1 ? scriptNames.getOrDefault(String.valueOf(argv.get(1)), "evalsha ?")
                    : command.equals("eval") ? "eval (a script's first load)" : command;
            long[] a = agg.computeIfAbsent(name, k -> new long[4]);
            a[0]++;
            if (micros > 1000) {
                a[1]++;
            }
            if (micros > 2000) {
                a[2]++;
            }
            a[3] = Math.max(a[3], micros);
        }
        Map<String, Calls> byName = new TreeMap<>();
        agg.forEach((k, a) -> byName.put(k, new Calls(a[0], a[1], a[2], a[3])));
        return new Reading(byName, latency);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
