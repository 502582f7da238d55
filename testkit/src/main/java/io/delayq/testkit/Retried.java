package io.delayq.testkit;

import java.time.Duration;

/**
 * A failed attempt {@code attempt} that the worker scheduled again: {@code error} is what Redis keeps as the
 * task's last error ({@code "IllegalStateException: gateway timed out"}), {@code nextDueAt} the new due time and
 * {@code backoff} the wait from the failure to it — the configured backoff (or a {@code RetryLater}'s delay) plus
 * the few milliseconds the worker took to settle the outcome.
 */
public record Retried(String id, int attempt, String error, long nextDueAt, Duration backoff) {
}
