package io.delayq.bench.fleet;

import java.util.Arrays;

/** Builds a scenario's due times from steady rates and bursts, each placed relative to one reference instant. */
public final class LoadShape {
    private final long origin;
    private long[] due = new long[1024];
    private int size;

    /** @param origin epoch ms every offset is relative to (the scenario's "00:00") */
    public LoadShape(long origin) {
        this.origin = origin;
    }

    /** {@code perSecond} tasks a second, evenly spaced, due from {@code fromMs} (included) to {@code toMs} (excluded). */
    public LoadShape steady(long fromMs, long toMs, double perSecond) {
        long n = Math.round((toMs - fromMs) / 1000.0 * perSecond);
        for (long i = 0; i < n; i++) {
            add(origin + fromMs + (long) (i * 1000.0 / perSecond));
        }
        return this;
    }

    /** {@code count} tasks due from {@code atMs} on, evenly spread over {@code overMs} (0: all at that instant). */
    public LoadShape burst(long atMs, int count, long overMs) {
        for (int i = 0; i < count; i++) {
            add(origin + atMs + (overMs == 0 ? 0 : i * overMs / count));
        }
        return this;
    }

    public DueTimes build() {
        return new DueTimes(Arrays.copyOf(due, size));
    }

    private void add(long at) {
        if (size == due.length) {
            due = Arrays.copyOf(due, due.length * 2);
        }
        due[size++] = at;
    }
}
