package io.delayq.worker.config;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter and a cap: attempt n waits initial × multiplier^(n-1), capped at
 * max, then spread by ± jitter so that tasks failing together do not retry together.
 */
public record RetryPolicy(int maxAttempts, Duration initial, Duration max, double multiplier, double jitter) {

    public Duration backoff(int attempt) {
        double base = initial.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
        double capped = Math.min(base, max.toMillis());
        double spread = capped * jitter * (ThreadLocalRandom.current().nextDouble() * 2 - 1);
        return Duration.ofMillis(Math.max(0, Math.round(capped + spread)));
    }
}
