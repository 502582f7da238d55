package io.delayq.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The harness' own view of Redis: FLUSHALL between systems, and INFO snapshots (CPU, memory,
 * commandstats) around each phase. Its own commands are left out of the deltas: INFO entirely,
 * and the ZCARD polls it makes to see delayq's acks land are counted and subtracted.
 */
final class RedisProbe implements AutoCloseable {
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final AtomicLong ownZcard = new AtomicLong();

    RedisProbe(String url) {
        this.client = RedisClient.create(url);
        this.connection = client.connect();
        this.redis = connection.sync();
    }

    String version() {
        return field(redis.info("server"), "redis_version");
    }

    void flushAll() {
        redis.flushall();
        // let lazily freed memory go before the next baseline
        Pause.millis(200);
    }

    long zcard(String key) {
        ownZcard.incrementAndGet();
        return redis.zcard(key);
    }

    /** MEMORY USAGE key SAMPLES 0: exact, walks every element (fine once per run). */
    long memoryUsage(String key) {
        Long bytes = redis.dispatch(io.lettuce.core.protocol.CommandType.MEMORY, new io.lettuce.core.output.IntegerOutput<>(io.lettuce.core.codec.StringCodec.UTF8),
                new io.lettuce.core.protocol.CommandArgs<>(io.lettuce.core.codec.StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
        return bytes == null ? 0 : bytes;
    }

    /** MEMORY USAGE summed over every key matching {@code pattern} (SCAN, once per run). */
    long memoryUsageOfKeys(String pattern) {
        long total = 0;
        io.lettuce.core.ScanArgs match = io.lettuce.core.ScanArgs.Builder.matches(pattern).limit(1000);
        io.lettuce.core.KeyScanCursor<String> cursor = redis.scan(match);
        while (true) {
            for (String key : cursor.getKeys()) {
                total += memoryUsage(key);
            }
            if (cursor.isFinished()) {
                return total;
            }
            cursor = redis.scan(cursor, match);
        }
    }

    long usedMemory() {
        return Long.parseLong(field(redis.info("memory"), "used_memory"));
    }

    Snapshot snapshot() {
        String cpu = redis.info("cpu");
        double cpuSeconds = Double.parseDouble(field(cpu, "used_cpu_sys")) + Double.parseDouble(field(cpu, "used_cpu_user"));
        Map<String, Long> calls = new HashMap<>();
        for (String line : redis.info("commandstats").split("\r?\n")) {
            // cmdstat_zadd:calls=12,usec=34,usec_per_call=2.83,rejected_calls=0,failed_calls=0
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            int at = line.indexOf("calls=") + "calls=".length();
            int end = line.indexOf(',', at);
            calls.put(name, Long.parseLong(line.substring(at, end < 0 ? line.length() : end)));
            int u = line.indexOf("usec=") + "usec=".length();
            int uEnd = line.indexOf(',', u);
            calls.put("usec:" + name, Long.parseLong(line.substring(u, uEnd < 0 ? line.length() : uEnd)));
        }
        calls.remove("info");
        calls.remove("usec:info");
        calls.merge("zcard", -ownZcard.get(), Long::sum);
        return new Snapshot(System.nanoTime(), cpuSeconds, usedMemory(), calls);
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new IllegalStateException("INFO has no field " + name);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }

    /** One reading of Redis' counters. */
    record Snapshot(long nanos, double cpuSeconds, long usedMemory, Map<String, Long> calls) {
        RedisUsage until(Snapshot later) {
            long commands = 0;
            long scripts = 0;
            Map<String, Long> delta = new HashMap<>();
            Map<String, Long> usec = new HashMap<>();
            for (Map.Entry<String, Long> e : later.calls.entrySet()) {
                long d = e.getValue() - calls.getOrDefault(e.getKey(), 0L);
                if (e.getKey().startsWith("usec:")) {
                    if (d > 0) {
                        usec.put(e.getKey().substring(5), d);
                    }
                    continue;
                }
                if (d > 0) {
                    delta.put(e.getKey(), d);
                    commands += d;
                    if (SCRIPT_CALLS.contains(e.getKey())) {
                        scripts += d;
                    }
                }
            }
            return new RedisUsage((later.cpuSeconds - cpuSeconds) * 1000.0, commands, scripts, (later.nanos - nanos) / 1e9, delta, usec);
        }
    }

    private static final List<String> SCRIPT_CALLS = List.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro");
}
