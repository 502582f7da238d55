package io.delayq.reshard;

import io.delayq.layout.Layout;
import io.delayq.shard.Sharding;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where an id-addressed operation looks, from the meta hash's fields alone (no Redis). */
class LayoutTest {
    private static String idMovingFrom4To16() {
        for (int n = 0; ; n++) {
            if (Sharding.shardOf("id-" + n, 4) != Sharding.shardOf("id-" + n, 16)) {
                return "id-" + n;
            }
        }
    }

    @Test
    void duringAMigrationTheOldShardComesFirstThenTheNewOne() {
        Layout l = Layout.fromMeta(Arrays.asList(16L, 2L, 1L, "4,16", "4 16", 10L, 5L));
        String id = idMovingFrom4To16();
        assertThat(l.migrating()).isTrue();
        assertThat(l.from()).isEqualTo(4);
        assertThat(l.lookupOrder(id)).containsExactly(Sharding.shardOf(id, 4), Sharding.shardOf(id, 16));
        assertThat(l.oldShardOf(id)).isEqualTo(Sharding.shardOf(id, 4));
        assertThat(l.stamp()).isEqualTo("1 16 4");
    }

    @Test
    void anIdThatStaysOnItsShardIsAskedOnceAndNeedsNoPresentOnlyStep() {
        Layout l = Layout.of(1, 16, "4,16", "4 16", 0, -1);
        for (int n = 0; n < 200; n++) {
            String id = "k-" + n;
            if (Sharding.shardOf(id, 4) == Sharding.shardOf(id, 16)) {
                assertThat(l.lookupOrder(id)).containsExactly(Sharding.shardOf(id, 16));
                assertThat(l.oldShardOf(id)).isEqualTo(-1);
                return;
            }
        }
        throw new AssertionError("no id kept its shard");
    }

    @Test
    void afterMigrationsTheCurrentShardComesFirstThenEveryEarlierCountNewestFirst() {
        Layout l = Layout.of(4, 64, "4,16,64", "", 0, -1);
        String id = idMovingFrom4To16();
        List<Integer> expected = new ArrayList<>();
        for (int count : new int[] {64, 16, 4}) {
            int s = Sharding.shardOf(id, count);
            if (!expected.contains(s)) {
                expected.add(s);
            }
        }
        assertThat(l.migrating()).isFalse();
        assertThat(l.lookupOrder(id)).containsExactlyElementsOf(expected);
        assertThat(l.oldShardOf(id)).isEqualTo(-1);
        assertThat(l.stamp()).isEqualTo("4 64 0");
    }

    @Test
    void aQueueNeverReshardedHasEpochZeroAndItsOneCount() {
        Layout l = Layout.fromMeta(Arrays.asList(8L, 2L));
        assertThat(l.epoch()).isZero();
        assertThat(l.history()).containsExactly(8);
        assertThat(l.lookupOrder("x")).containsExactly(Sharding.shardOf("x", 8));
    }
}
