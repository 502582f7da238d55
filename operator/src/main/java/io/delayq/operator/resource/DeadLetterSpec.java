package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/** The dead-letter set is bounded by count and age, so a poisoned producer cannot fill Redis. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeadLetterSpec {
    @JsonPropertyDescription("Most dead tasks kept per shard; the oldest are dropped first.")
    @Default("100000")
    @Min(1)
    private long maxCount = 100000;

    @JsonPropertyDescription("How long dead tasks are kept, e.g. 14d.")
    @Default("14d")
    @Pattern(Durations.PATTERN)
    private String maxAge = "14d";

    public long getMaxCount() {
        return maxCount;
    }

    public void setMaxCount(long maxCount) {
        this.maxCount = maxCount;
    }

    public String getMaxAge() {
        return maxAge;
    }

    public void setMaxAge(String maxAge) {
        this.maxAge = maxAge;
    }
}
