package io.delayq.shard;

import io.delayq.InvalidInputException;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardingTest {

    /**
     * Vectors computed with Python 3: {@code zlib.crc32(id.encode()) % n} for n = 16, 7 and 1024.
     * A producer in another language must land every id on the same shard as the workers.
     */
    /** The protocol's record bucket (clients/protocol-vectors.json), from the id's chars (ASCII) or its UTF-8 bytes. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            order-8812        | 249
            W-17              | 209
            заказ-7           | 1615
            注文-42            | 17
            """)
    void recordBucketMatchesTheSharedVectorsAndTheByteForm(String id, int bucket) {
        assertThat(RecordBuckets.bucketOf(id)).isEqualTo(bucket);
        assertThat(RecordBuckets.bucketOf(id.getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEqualTo(bucket);
        String longAscii = "x".repeat(200) + id.length();
        assertThat(RecordBuckets.bucketOf(longAscii)).isEqualTo(RecordBuckets.bucketOf(longAscii.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            order-8812 | 0  | 3 | 240
            W-17       | 9  | 3 | 777
            C-9        | 12 | 6 | 108
            a          | 3  | 4 | 579
            задача-1   | 7  | 6 | 391
            注文-42     | 11 | 0 | 1003
            émoji-😀    | 6  | 0 | 694
            """)
    void shardOfEqualsPythonZlibCrc32(String id, int mod16, int mod7, int mod1024) {
        assertThat(Sharding.shardOf(id, 16)).isEqualTo(mod16);
        assertThat(Sharding.shardOf(id, 7)).isEqualTo(mod7);
        assertThat(Sharding.shardOf(id, 1024)).isEqualTo(mod1024);
    }

    @Test
    void longIdUsesAllItsBytes() {
        // zlib.crc32(('x' * 256).encode()) == 1944984080
        assertThat(Sharding.shardOf("x".repeat(256), 1024)).isEqualTo((int) (1944984080L % 1024));
        assertThat(Sharding.shardOf("x".repeat(256), 16)).isZero();
    }

    @Test
    void shardCountIsBounded() {
        assertThat(Sharding.requireShardCount(1)).isEqualTo(1);
        assertThat(Sharding.requireShardCount(1024)).isEqualTo(1024);
        for (int bad : new int[] {0, -1, 1025}) {
            assertThatThrownBy(() -> Sharding.requireShardCount(bad)).isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("shards:").extracting(e -> ((InvalidInputException) e).field()).isEqualTo("shards");
        }
    }

    @Test
    void everyKeyOfAShardSharesOneClusterSlot() {
        ShardKeys k = new ShardKeys("orders", 5);
        assertThat(k.scriptKeys()).containsExactly(
                "dq:{orders:5}:due", "dq:{orders:5}:due:p1", "dq:{orders:5}:due:p2", "dq:{orders:5}:inflight",
                "dq:{orders:5}:tasks", "dq:{orders:5}:attempts", "dq:{orders:5}:errors", "dq:{orders:5}:dead",
                "dq:{orders:5}:marker", "dq:{orders:5}:rate");
        assertThat(k.claimRequest("r1")).isEqualTo("dq:{orders:5}:claim:r1");
        int slot = SlotHash.getSlot("orders:5");
        assertThat(k.scriptKeys()).allSatisfy(key -> assertThat(SlotHash.getSlot(key)).isEqualTo(slot));
        assertThat(SlotHash.getSlot(k.claimRequest("any"))).isEqualTo(slot);
        assertThat(ShardKeys.meta("orders")).isEqualTo("dq:{orders}:meta");
    }

    @Test
    void shardRangeValidatesItsBounds() {
        assertThat(ShardRange.all(4).shards().toArray()).containsExactly(0, 1, 2, 3);
        assertThat(new ShardRange(2, 3).fitsIn(4)).isTrue();
        assertThat(new ShardRange(2, 4).fitsIn(4)).isFalse();
        assertThatThrownBy(() -> new ShardRange(-1, 2)).hasMessageStartingWith("shardFrom:");
        assertThatThrownBy(() -> new ShardRange(3, 2)).hasMessageStartingWith("shardTo:");
    }
}
