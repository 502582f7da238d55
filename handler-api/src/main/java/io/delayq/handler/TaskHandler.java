package io.delayq.handler;

/**
 * Business logic for an in-process worker, found with {@link java.util.ServiceLoader}: list the
 * implementation in {@code META-INF/services/io.delayq.handler.TaskHandler} of a jar on
 * the worker's classpath (a custom worker image).
 * <ul>
 *   <li>return normally: the task is done (acked);</li>
 *   <li>throw {@link PermanentFailure}: dead-letter at once, no retry;</li>
 *   <li>throw {@link RetryLater}: retry after the given delay;</li>
 *   <li>throw anything else: retry with the configured backoff until attempts run out.</li>
 * </ul>
 * Handlers run on a bounded pool; a handler running past the lease keeps it alive by heartbeat.
 */
public interface TaskHandler {
    void handle(Task task) throws Exception;

    /** Called once before the first task; the default does nothing. */
    default void start(HandlerContext context) throws Exception {
    }

    /** Called once at shutdown after the last task; the default does nothing. */
    default void stop() throws Exception {
    }
}
