package io.delayq.bench;

/**
 * A system that runs inside the harness' JVM. {@link JvmSubject} drives the workloads through
 * these calls; an instance lives for one workload, on a freshly flushed Redis.
 */
interface Contender extends AutoCloseable {
    /** Stores tasks 0..n-1, all due at {@code dueMillis} (in the past), with the system's batch API. */
    void enqueueDue(int n, long dueMillis) throws Exception;

    /** Starts the consumers; each handled task is reported to {@code recorder}. */
    void startConsumers(Recorder recorder) throws Exception;

    /** Whether everything handled so far is also finished in Redis (acked); systems without acks always are. */
    default boolean settled() {
        return true;
    }

    /** Enqueues one task the way an application would (one call per task). */
    void enqueueOne(int index, long dueMillis) throws Exception;

    /** Stores tasks 0..n-1 due far in the future with the given payload (for memory per task). */
    void enqueueWaiting(int n, String payload, long dueMillis) throws Exception;

    void stopConsumers();

    /** After {@link #enqueueWaiting}: where the memory went, for the notes ("" when not broken down). */
    default String memoryBreakdown(int n) {
        return "";
    }

    @Override
    void close();
}
