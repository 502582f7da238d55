package io.delayq.bench.fleet;

import java.util.Arrays;

/** The due times of a scenario's tasks (epoch ms), ascending: what Redis' ZSETs hold, reduced to their scores. */
public final class DueTimes {
    private final long[] due;

    DueTimes(long[] unsorted) {
        this.due = unsorted.clone();
        Arrays.sort(this.due);
    }

    public int size() {
        return due.length;
    }

    public long at(int index) {
        return due[index];
    }

    /** How many tasks are due at or before {@code time}: the index of the first due after it. */
    public int dueBy(long time) {
        int lo = 0;
        int hi = due.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (due[mid] <= time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public long first() {
        return due.length == 0 ? -1 : due[0];
    }

    public long last() {
        return due.length == 0 ? -1 : due[due.length - 1];
    }
}
