package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

import static io.delayq.settings.WorkerSettings.MAX_RATE;
import static io.delayq.settings.WorkerSettings.MAX_RATE_BURST;

/** A token bucket kept in Redis, shared by every worker of the queue. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.burst) || (has(self.perSecond) && self.perSecond > 0.0)",
        message = "spec.rateLimit.burst needs spec.rateLimit.perSecond above 0")
@ValidationRule(value = "!has(self.perGroupBurst) || (has(self.perGroupPerSecond) && self.perGroupPerSecond > 0.0)",
        message = "spec.rateLimit.perGroupBurst needs spec.rateLimit.perGroupPerSecond above 0")
public class RateLimitSpec {
    @JsonPropertyDescription("Tasks per second across the whole fleet; 0 means no limit.")
    @Min(0)
    @Max(MAX_RATE)
    private Double perSecond;

    @JsonPropertyDescription("Tasks that may start at once after an idle spell.")
    @Min(1)
    @Max(MAX_RATE_BURST)
    private Integer burst;

    @JsonPropertyDescription("Tasks per second of each group (a task's group key) across the fleet; 0 means no limit.")
    @Min(0)
    @Max(MAX_RATE)
    private Double perGroupPerSecond;

    @JsonPropertyDescription("Tasks of one group that may start at once after an idle spell.")
    @Min(1)
    @Max(MAX_RATE_BURST)
    private Integer perGroupBurst;

    public Double getPerSecond() {
        return perSecond;
    }

    public void setPerSecond(Double perSecond) {
        this.perSecond = perSecond;
    }

    public Integer getBurst() {
        return burst;
    }

    public void setBurst(Integer burst) {
        this.burst = burst;
    }

    public Double getPerGroupPerSecond() {
        return perGroupPerSecond;
    }

    public void setPerGroupPerSecond(Double perGroupPerSecond) {
        this.perGroupPerSecond = perGroupPerSecond;
    }

    public Integer getPerGroupBurst() {
        return perGroupBurst;
    }

    public void setPerGroupBurst(Integer perGroupBurst) {
        this.perGroupBurst = perGroupBurst;
    }
}
