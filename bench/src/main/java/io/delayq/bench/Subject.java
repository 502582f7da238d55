package io.delayq.bench;

/**
 * One system under test in one configuration ("delayq, 4 workers", "BullMQ, concurrency 50").
 * Each workload starts on an empty Redis (the harness flushes before calling it).
 */
interface Subject extends AutoCloseable {
    /** The system ("delayq", "BullMQ 6.7.0"): memory is measured once per system. */
    String system();

    /** The configuration within the system ("4 workers"). */
    String variant();

    /** The settings that matter, printed and written into docs/bench.md. */
    String settings();

    default String name() {
        return variant().isEmpty() ? system() : system() + ", " + variant();
    }

    Results.W1 w1(Workbench bench) throws Exception;

    Results.W2 w2(Workbench bench) throws Exception;

    /** Null when memory per waiting task is not meaningful for this subject (or measured by a sibling). */
    Results.Memory memory(Workbench bench) throws Exception;

    @Override
    default void close() {
    }
}
