package io.delayq.bench.fleet;

import java.util.Arrays;

/** Firing lag (fired time − due time) over every task of a run, in ms. */
public record LagStats(long count, long p50, long p99, long max) {

    public static LagStats of(long[] lagsMs, int count) {
        if (count == 0) {
            return new LagStats(0, 0, 0, 0);
        }
        long[] sorted = Arrays.copyOf(lagsMs, count);
        Arrays.sort(sorted);
        return new LagStats(count, rank(sorted, 0.50), rank(sorted, 0.99), sorted[count - 1]);
    }

    /** Nearest rank: the smallest lag at least {@code q} of the tasks did not exceed. */
    private static long rank(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
