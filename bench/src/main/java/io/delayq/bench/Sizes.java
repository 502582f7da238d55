package io.delayq.bench;

/**
 * How big each workload is. The full sizes are the workloads docs/bench.md reports; {@code --quick} shrinks
 * them for development on a shared machine (figures from a quick run are not comparable).
 */
record Sizes(boolean quick, int w1Tasks, int w2Rate, int w2Seconds, int w2MaxDelayMs, int memoryTasks, int payloadBytes) {

    static Sizes standard() {
        return new Sizes(false, 100_000, 1_000, 20, 2_000, 1_000_000, 50);
    }

    static Sizes small() {
        return new Sizes(true, 20_000, 1_000, 5, 2_000, 100_000, 50);
    }

    int w2Tasks() {
        return w2Rate * w2Seconds;
    }

    String describe() {
        return String.format("W1 %,d due tasks; W2 %,d tasks/s for %d s, delays uniform in [0, %d ms]; memory %,d waiting tasks with %d-byte payloads%s",
                w1Tasks, w2Rate, w2Seconds, w2MaxDelayMs, memoryTasks, payloadBytes, quick ? " (--quick)" : "");
    }
}
