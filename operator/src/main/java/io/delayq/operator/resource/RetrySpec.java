package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

import static io.delayq.settings.WorkerSettings.*;

/** Backoff between delivery attempts; after maxAttempts a task goes to the dead-letter set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RetrySpec {
    @JsonPropertyDescription("Attempts before a task is dead-lettered (counted at claim time).")
    @Default("" + DEFAULT_MAX_ATTEMPTS)
    @Min(1)
    @Max(MAX_ATTEMPTS)
    private int maxAttempts = DEFAULT_MAX_ATTEMPTS;

    @JsonPropertyDescription("Delay before the first retry, e.g. 1s.")
    @Default(DEFAULT_BACKOFF_INITIAL)
    @Pattern(Durations.PATTERN)
    private String initialBackoff = DEFAULT_BACKOFF_INITIAL;

    @JsonPropertyDescription("Longest delay between retries, e.g. 5m.")
    @Default(DEFAULT_BACKOFF_MAX)
    @Pattern(Durations.PATTERN)
    private String maxBackoff = DEFAULT_BACKOFF_MAX;

    @JsonPropertyDescription("Factor between consecutive delays (1-100); maxBackoff caps the delay it grows to.")
    @Default("" + DEFAULT_BACKOFF_MULTIPLIER)
    @Min(1)
    @Max(MAX_BACKOFF_MULTIPLIER)
    private double multiplier = DEFAULT_BACKOFF_MULTIPLIER;

    @JsonPropertyDescription("Random spread of each delay, as a fraction (0-1).")
    @Default("" + DEFAULT_JITTER)
    @Min(0)
    @Max(1)
    private double jitter = DEFAULT_JITTER;

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public String getInitialBackoff() {
        return initialBackoff;
    }

    public void setInitialBackoff(String initialBackoff) {
        this.initialBackoff = initialBackoff;
    }

    public String getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(String maxBackoff) {
        this.maxBackoff = maxBackoff;
    }

    public double getMultiplier() {
        return multiplier;
    }

    public void setMultiplier(double multiplier) {
        this.multiplier = multiplier;
    }

    public double getJitter() {
        return jitter;
    }

    public void setJitter(double jitter) {
        this.jitter = jitter;
    }
}
