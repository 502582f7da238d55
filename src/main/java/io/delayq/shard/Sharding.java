package io.delayq.shard;

import io.delayq.InvalidInputException;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Which shard a task lives on: CRC-32/IEEE of the UTF-8 id, modulo the shard count. The same
 * function as Python's {@code zlib.crc32} and Go's {@code crc32.ChecksumIEEE}, so producers in
 * any language agree with the workers.
 */
public final class Sharding {
    public static final int MAX_SHARDS = 1024;

    private Sharding() {
    }

    public static int shardOf(String taskId, int shards) {
        return shardOf(taskId.getBytes(StandardCharsets.UTF_8), shards);
    }

    /** The same over raw bytes, for tools that must address an id that is not valid UTF-8. */
    public static int shardOf(byte[] taskId, int shards) {
        CRC32 crc = new CRC32();
        crc.update(taskId);
        return (int) (crc.getValue() % shards);
    }

    public static int requireShardCount(int shards) {
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new InvalidInputException("shards", "must be between 1 and " + MAX_SHARDS + ", got " + shards);
        }
        return shards;
    }
}
