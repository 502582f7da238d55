package io.delayq.bench.outbox;

import java.util.Arrays;

/** p50, p99 and max of latencies in nanoseconds, shown in milliseconds (nearest rank). */
public record Percentiles(int count, double p50Ms, double p99Ms, double maxMs) {
    public static Percentiles of(long[] nanos) {
        if (nanos.length == 0) {
            return new Percentiles(0, Double.NaN, Double.NaN, Double.NaN);
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted.length, ms(rank(sorted, 0.50)), ms(rank(sorted, 0.99)), ms(sorted[sorted.length - 1]));
    }

    private static long rank(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
