package io.delayq.worker.controls;

import io.delayq.task.TaskOptions;
import io.delayq.worker.config.RetryPolicy;

import java.time.Duration;

/** The retry policy for one task: the worker's, with whatever the task's record overrides (its jitter stays the worker's). */
public final class TaskRetry {
    private TaskRetry() {
    }

    public static RetryPolicy of(RetryPolicy worker, TaskOptions options) {
        if (!options.overridesRetry()) {
            return worker;
        }
        Duration initial = options.backoffMs() == null ? worker.initial() : Duration.ofMillis(options.backoffMs());
        Duration max = options.backoffMaxMs() == null ? worker.max() : Duration.ofMillis(options.backoffMaxMs());
        if (max.compareTo(initial) < 0) {
            // only one side overridden, beyond the other: the task's own value wins
            if (options.backoffMs() != null) {
                max = initial;
            } else {
                initial = max;
            }
        }
        return new RetryPolicy(options.maxAttempts() == null ? worker.maxAttempts() : options.maxAttempts(), initial, max,
                options.backoffMultiplier() == null ? worker.multiplier() : options.backoffMultiplier(), worker.jitter());
    }
}
