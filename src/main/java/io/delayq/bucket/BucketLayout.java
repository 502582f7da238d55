package io.delayq.bucket;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * What the client side of protocol 3 must agree on with {@code p3/include/buckets.lua}: the shard's key prefix,
 * the id index's buckets, and how a claimed value decodes against its bucket's name.
 */
public final class BucketLayout {
    /** A due window's length (ms): tasks of one window share buckets and are claimed together. */
    public static final long WINDOW_MS = 100;
    /** Tasks due this far ahead wait in coarse buckets of a minute, split into windows as their minute nears. */
    public static final long COARSE_MS = 60_000;
    public static final long HORIZON_MS = 600_000;
    /** Buckets of the id index per shard ({@code ix:<h>}); prime, so that it shares no factor with a shard count. */
    public static final int ID_INDEX_BUCKETS = 2039;
    /** The shard's lease set (in-flight name -> lease expiry), after {@link #prefix}. */
    public static final String LEASE = "lease";
    /** The mark of a shard upgraded in place while it still holds protocol 2's tasks, after {@link #prefix}. */
    public static final String LEGACY = "legacy";
    /** The shard's index of coarse minute buckets, after {@link #prefix}. */
    public static final String COARSE_INDEX = "cidx";
    private static final int WINDOW_DIGITS = 2;
    private static final int COARSE_DIGITS = 4;

    private BucketLayout() {
    }

    /** The prefix every key of the shard starts with, {@code KEYS[1]} of every protocol-3 script. */
    public static String prefix(String queue, int shard) {
        return "dq:{" + queue + ":" + shard + "}:";
    }

    /** The shard's indexes of waiting window buckets, levels 0, 1 and 2 (scored by window start). */
    public static java.util.List<String> windowIndexes(String queue, int shard) {
        String prefix = prefix(queue, shard);
        return java.util.List.of(prefix + "idx", prefix + "idx1", prefix + "idx2");
    }

    /** The start of the window a task due at {@code dueAt} waits in (a claim takes the window whole from there). */
    public static long windowStart(long dueAt) {
        return dueAt - dueAt % WINDOW_MS;
    }

    /** The id index bucket of {@code id}: crc32(id) % {@link #ID_INDEX_BUCKETS}, as the scripts compute it. */
    public static int indexBucket(String id) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % ID_INDEX_BUCKETS);
    }

    /** The attempt a bucket's tasks wait or run as: {@code .n<attempt>} in its name, 1 without. */
    public static int attemptOf(String bucketName) {
        // a group's name comes last, after '#', and may hold ".n" itself
        int group = bucketName.indexOf('#');
        int at = group < 0 ? bucketName.indexOf(".n") : bucketName.lastIndexOf(".n", group);
        if (at < 0) {
            return 1;
        }
        int end = at + 2;
        while (end < bucketName.length() && Character.isDigit(bucketName.charAt(end))) {
            end++;
        }
        return Integer.parseInt(bucketName, at + 2, end, 10);
    }

    /** A task's due time from its bucket's name (its window's or minute's start) and its value's leading offset. */
    public static long dueOf(String bucketName, String value) {
        int digits = digitsOf(bucketName);
        return startOf(bucketName) + Long.parseLong(value, 0, digits, 36);
    }

    /** The task's record: its value after the due time's offset. */
    public static String recordOf(String bucketName, String value) {
        return value.substring(digitsOf(bucketName));
    }

    private static int digitsOf(String bucketName) {
        return bucketName.charAt(0) == 'c' ? COARSE_DIGITS : WINDOW_DIGITS;
    }

    private static long startOf(String bucketName) {
        int end = 1;
        while (end < bucketName.length() && Character.isLetterOrDigit(bucketName.charAt(end))) {
            end++;
        }
        return Long.parseLong(bucketName, 1, end, 36);
    }
}
