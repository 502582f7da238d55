package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/** Backoff between delivery attempts; after maxAttempts a task goes to the dead-letter set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RetrySpec {
    @JsonPropertyDescription("Attempts before a task is dead-lettered (counted at claim time).")
    @Default("5")
    @Min(1)
    @Max(1000)
    private int maxAttempts = 5;

    @JsonPropertyDescription("Delay before the first retry, e.g. 1s.")
    @Default("1s")
    @Pattern(Durations.PATTERN)
    private String initialBackoff = "1s";

    @JsonPropertyDescription("Longest delay between retries, e.g. 5m.")
    @Default("5m")
    @Pattern(Durations.PATTERN)
    private String maxBackoff = "5m";

    @JsonPropertyDescription("Factor between consecutive delays (1-10).")
    @Default("2.0")
    @Min(1)
    @Max(10)
    private double multiplier = 2.0;

    @JsonPropertyDescription("Random spread of each delay, as a fraction (0-1).")
    @Default("0.2")
    @Min(0)
    @Max(1)
    private double jitter = 0.2;

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
