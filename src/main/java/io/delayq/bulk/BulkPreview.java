package io.delayq.bulk;

import java.util.List;

/**
 * What a bulk filter matches right now, read without changing anything.
 *
 * @param matched  tasks matched over every shard (each shard counted at the moment it was read)
 * @param sample   the earliest-due matches, at most {@link BulkActions#SAMPLE}
 * @param earliest the earliest due time of a match, or -1 when none matched
 * @param latest   the latest due time of a match, or -1
 * @param longestCallMicros the longest single script call of the preview, as this process timed it
 */
public record BulkPreview(BulkFilter filter, long matched, List<BulkSample> sample, long earliest, long latest, long serverNow,
                          int shards, long longestCallMicros) {
    public BulkPreview {
        sample = List.copyOf(sample);
    }
}
