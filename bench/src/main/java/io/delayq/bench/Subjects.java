package io.delayq.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * The line-up, in the order it runs. delayq's settings can be overridden for tuning with
 * {@code -Dbench.delayq.shards=…}, {@code .batch}, {@code .concurrency}, {@code .batch4}, {@code .concurrency4}.
 */
final class Subjects {
    static final int SHARDS = Integer.getInteger("bench.delayq.shards", 4);
    /** One worker: claims of up to 1,000 (the largest DELAYQ_BATCH_SIZE), as many handler slots. */
    static final int BATCH = Integer.getInteger("bench.delayq.batch", 1000);
    static final int CONCURRENCY = Integer.getInteger("bench.delayq.concurrency", 1000);
    /** Four workers share the same 1,000 slots in total: 250 each, claims of up to 250. */
    static final int BATCH_4 = Integer.getInteger("bench.delayq.batch4", 250);
    static final int CONCURRENCY_4 = Integer.getInteger("bench.delayq.concurrency4", 250);
    static final int REDISSON_CONSUMERS = 4;
    /** The README's example queue has 16 shards: the "defaults" row uses them and sets nothing else. */
    static final int DEFAULTS_SHARDS = 16;
    static final String CEILING = "reference at-least-once design (ceiling)";

    private Subjects() {
    }

    static List<Subject> all(Path bullmqScript, Path nodeLog) {
        DelayqContender.Settings one = new DelayqContender.Settings(1, SHARDS, BATCH, CONCURRENCY);
        DelayqContender.Settings four = new DelayqContender.Settings(4, SHARDS, BATCH_4, CONCURRENCY_4);
        DelayqContender.Settings defaults = DelayqContender.Settings.defaults(DEFAULTS_SHARDS);
        List<Subject> variants = new java.util.ArrayList<>();
        variants.add(new JvmSubject("delayq", "defaults", defaults.describe(), false, b -> new DelayqContender(b, defaults)));
        variants.addAll(variants());
        return java.util.stream.Stream.concat(variants.stream(), List.<Subject>of(
                new JvmSubject("delayq", "1 worker", one.describe(), true, b -> new DelayqContender(b, one)),
                new JvmSubject("delayq", "4 workers", four.describe(), false, b -> new DelayqContender(b, four)),
                new JvmSubject("seed loop", "1 consumer",
                        "ZRANGEBYSCORE key 0 now LIMIT 0 10, then ZREM per id, handles every id it read; 1 s sleep when nothing is due; "
                                + "W1 enqueue: ZADD of 1,000 members, 8 in flight", true, b -> new SeedLoopContender(b, 1)),
                new JvmSubject("seed loop", "2 consumers", "as above, two consumer threads (own connections)", false,
                        b -> new SeedLoopContender(b, 2)),
                new JvmSubject("Lua batch pop", "at-most-once",
                        "one script: ZRANGEBYSCORE … LIMIT 0 100 + ZREM, 1 consumer, 1 s sleep when nothing is due; no acks",
                        false, b -> new LuaPopContender(b, 1)),
                new JvmSubject("Redisson 4.7.0 RDelayedQueue", REDISSON_CONSUMERS + " consumers",
                        "offerAsync(value, delay) (no batch API; 1,000 in flight), " + REDISSON_CONSUMERS
                                + " consumer threads polling the destination RBlockingQueue; StringCodec; no acks. Deprecated upstream, "
                                + "successor RReliableQueue only in the paid edition",
                        true, b -> new RedissonContender(b, REDISSON_CONSUMERS)),
                new BullMqSubject(bullmqScript, 1, true, nodeLog),
                new BullMqSubject(bullmqScript, 50, false, nodeLog),
                new JvmSubject(CEILING, CeilingContender.SHARDS + " shards, " + CeilingContender.CONSUMERS + " consumers",
                        "the ceiling, not a peer: the minimal at-least-once design delayq is measured against — per shard a due ZSET, an in-flight ZSET "
                                + "scored by lease expiry and a record hash; one claim script per " + String.format("%,d", CeilingContender.BATCH)
                                + " tasks (TIME, ZRANGEBYSCORE … LIMIT, ZREM, ZADD to in-flight, HMGET of the records, the lease token), one "
                                + "asynchronous ack script per claim (ZMSCORE for the token, ZREM + HDEL of the ids still holding it); no retries, "
                                + "attempts, dead letters, wake-ups or metrics; polls every 10 ms when idle",
                        false, CeilingContender::new)).stream()).toList();
    }

    /**
     * Tuning aid: {@code -Dbench.delayq.variants="shards=4;DELAYQ_BATCH_SIZE=1000|DELAYQ_CONCURRENCY=1000"} adds a
     * "defaults" row per {@code |}-separated variant (1 worker, 16 shards unless {@code shards=} says otherwise, the
     * DELAYQ_* settings given), run beside the defaults in the same invocation.
     */
    private static List<Subject> variants() {
        String spec = System.getProperty("bench.delayq.variants", "");
        List<Subject> out = new java.util.ArrayList<>();
        for (String variant : spec.split("\\|")) {
            if (variant.isBlank()) {
                continue;
            }
            int shards = DEFAULTS_SHARDS;
            java.util.Map<String, String> extra = new java.util.LinkedHashMap<>();
            for (String kv : variant.split(";")) {
                String[] p = kv.trim().split("=", 2);
                if (p.length != 2) {
                    throw new IllegalArgumentException("bench.delayq.variants: '" + kv + "' is not NAME=VALUE");
                }
                if (p[0].equals("shards")) {
                    shards = Integer.parseInt(p[1]);
                } else {
                    extra.put(p[0], p[1]);
                }
            }
            DelayqContender.Settings s = new DelayqContender.Settings(1, shards, 0, 0, java.util.Map.copyOf(extra));
            out.add(new JvmSubject("delayq", "defaults + " + variant.trim(), s.describe() + "; " + extra, false, b -> new DelayqContender(b, s)));
        }
        return out;
    }
}
