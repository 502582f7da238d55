package io.delayq.shard;

import java.nio.charset.StandardCharsets;

/**
 * Which of its shard's record hashes holds a task's record ({@code dq:{q:i}:tasks:<bucket>}). The
 * scripts compute the same function in Lua ({@code record_bucket} in include/record_hash.lua); this copy is
 * for tools, tests and the documentation of the key layout.
 *
 * <p>Why buckets: Redis stores a hash of at most {@code hash-max-listpack-entries} (512) entries whose
 * values are at most {@code hash-max-listpack-value} (64) bytes as one listpack, ~50 B per entry
 * cheaper than a hash table. {@value #BUCKETS} buckets keep a shard of 250,000 waiting tasks at ~123
 * records per bucket (the fullest ~1.3x that), well under 512, while keeping each listpack lookup (a
 * linear scan) short. The count is prime because the id hash is a plain polynomial: sequential ids
 * share their low bits, and a power of two (2048) left the fullest bucket at ~1.9x the mean.
 */
public final class RecordBuckets {
    public static final int BUCKETS = 2039;
    private static final int MODULUS = 1 << 24;

    private RecordBuckets() {
    }

    /**
     * {@code h = (h * 31 + byte) mod 2^24} over the id's UTF-8 bytes, then {@code h mod BUCKETS}:
     * every intermediate stays below 2^29, exact in Lua's doubles.
     */
    public static int bucketOf(String id) {
        // the worker hashes every id it acks: ASCII ids (nearly all) are hashed from their chars, without a byte copy
        int h = 0;
        for (int i = 0, n = id.length(); i < n; i++) {
            char c = id.charAt(i);
            if (c >= 0x80) {
                return bucketOf(id.getBytes(StandardCharsets.UTF_8));
            }
            h = (h * 31 + c) & (MODULUS - 1);
        }
        return h % BUCKETS;
    }

    /** The same over raw bytes, for tools that must address an id that is not valid UTF-8. */
    public static int bucketOf(byte[] id) {
        int h = 0;
        for (byte b : id) {
            h = (h * 31 + (b & 0xff)) & (MODULUS - 1); // h stays non-negative: the same as mod 2^24
        }
        return h % BUCKETS;
    }
}
