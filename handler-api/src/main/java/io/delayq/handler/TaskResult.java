package io.delayq.handler;

/**
 * A short result of a task, kept with its completion record after the ack while the queue keeps results
 * ({@code DELAYQ_RESULTS_KEEP}), for whoever looks at the task later ({@code delayq inspect}, the console, the
 * clients' {@code inspect}): e.g. {@code task.result().set("refund r-91 issued")}. Reached through {@link Task#result()}.
 * <p>
 * The latest value set before the handler returns is kept; one set by a handler that then fails is dropped with the
 * attempt. At most {@link #MAX_BYTES} bytes of UTF-8 are kept: a longer result is cut there, on a character boundary,
 * and marked truncated — setting one never fails the task. With results not kept, it is forgotten.
 */
public interface TaskResult {
    /** The longest result kept, in bytes of UTF-8. */
    int MAX_BYTES = 1024;

    /** The result of a task that runs outside a worker (a handler's own unit test): forgotten. */
    TaskResult DISCARDED = text -> { };

    /**
     * Sets the task's result, replacing one set before.
     *
     * @param text any text; null for none
     */
    void set(String text);
}
