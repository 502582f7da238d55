package io.delayq.operator.sharding;

import io.delayq.shard.ShardRange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardPlanTest {

    @Test
    void everyCombinationCoversEachShardOnceInBalancedContiguousRanges() {
        for (int shards = 1; shards <= 1024; shards++) {
            for (int perWorker = 1; perWorker <= shards; perWorker++) {
                List<ShardRange> ranges = ShardPlan.ranges(shards, perWorker);
                String where = shards + " shards by " + perWorker;
                if (ranges.size() != (shards + perWorker - 1) / perWorker || ranges.get(0).from() != 0
                        || ranges.get(ranges.size() - 1).to() != shards - 1) {
                    throw new AssertionError(where + ": wrong count or ends: " + ranges);
                }
                int min = Integer.MAX_VALUE;
                int max = 0;
                for (int i = 0; i < ranges.size(); i++) {
                    ShardRange r = ranges.get(i);
                    if (i > 0 && r.from() != ranges.get(i - 1).to() + 1) {
                        throw new AssertionError(where + ": gap or overlap at " + r + " in " + ranges);
                    }
                    min = Math.min(min, r.size());
                    max = Math.max(max, r.size());
                }
                if (max > perWorker || max - min > 1) {
                    throw new AssertionError(where + ": sizes from " + min + " to " + max + " in " + ranges);
                }
            }
        }
    }

    @Test
    void unevenSplitIsBalancedWithTheLargerRangesFirst() {
        assertThat(ShardPlan.ranges(10, 4)).containsExactly(new ShardRange(0, 3), new ShardRange(4, 6), new ShardRange(7, 9));
        assertThat(ShardPlan.ranges(7, 2)).containsExactly(new ShardRange(0, 1), new ShardRange(2, 3), new ShardRange(4, 5), new ShardRange(6, 6));
    }

    @Test
    void evenSplitGivesEqualRanges() {
        assertThat(ShardPlan.ranges(16, 4)).containsExactly(
                new ShardRange(0, 3), new ShardRange(4, 7), new ShardRange(8, 11), new ShardRange(12, 15));
    }

    @Test
    void withoutShardsPerWorkerOneDeploymentOwnsEveryShard() {
        assertThat(ShardPlan.ranges(16, null)).containsExactly(new ShardRange(0, 15));
        assertThat(ShardPlan.ranges(1, null)).containsExactly(new ShardRange(0, 0));
    }

    @Test
    void impossibleSplitNamesTheField() {
        assertThatThrownBy(() -> ShardPlan.ranges(4, 8)).hasMessageContaining("spec.shardsPerWorker").hasMessageContaining("between 1 and spec.shards (4)");
        assertThatThrownBy(() -> ShardPlan.ranges(4, 0)).hasMessageContaining("spec.shardsPerWorker");
        assertThatThrownBy(() -> ShardPlan.ranges(0, null)).hasMessageContaining("spec.shards");
    }
}
