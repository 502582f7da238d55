package io.delayq.browse;

import java.util.List;

/**
 * One page of a browse across shards, in (score, id) order. {@code next} is the cursor of the
 * following page (null on the last). A page can hold fewer than {@code limit} tasks, or none, and
 * still have a next one: with an id prefix, each page reads a bounded number of entries per shard.
 * {@code inWindow} counts the state's tasks inside the time window per shard (before the prefix filter).
 */
public record BrowsePage(BrowseQuery query, List<BrowsedTask> tasks, String next, long[] inWindow, long serverNow) {

    public long totalInWindow() {
        long t = 0;
        for (long n : inWindow) {
            t += n;
        }
        return t;
    }

    public boolean hasNext() {
        return next != null;
    }
}
