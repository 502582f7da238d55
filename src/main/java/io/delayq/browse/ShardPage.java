package io.delayq.browse;

import java.util.List;

/**
 * What one shard answered: its tasks in order, how many of the state lie in the window, and the
 * position up to which the answer is complete ({@code frontier}; null when nothing matches beyond
 * the tasks answered).
 */
public record ShardPage(int shard, long serverNow, long inWindow, Position frontier, List<BrowsedTask> tasks) {
}
