package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

import static io.delayq.settings.WorkerSettings.*;

/** The dead-letter set is bounded by count and age, so a poisoned producer cannot fill Redis. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DeadLetterSpec {
    @JsonPropertyDescription("Most dead tasks kept per shard; the oldest are dropped first.")
    @Default("" + DEFAULT_DEAD_LETTER_MAX_COUNT)
    @Min(1)
    private long maxCount = DEFAULT_DEAD_LETTER_MAX_COUNT;

    @JsonPropertyDescription("How long dead tasks are kept, e.g. 14d.")
    @Default(DEFAULT_DEAD_LETTER_MAX_AGE)
    @Pattern(Durations.PATTERN)
    private String maxAge = DEFAULT_DEAD_LETTER_MAX_AGE;

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
