package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/**
 * The recurring-task planner's settings ({@code DELAYQ_SCHEDULE_*}). No schema defaults on purpose:
 * an absent field is not written into the pods, so the worker's own default applies and an operator
 * upgrade does not roll every worker.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SchedulePlannerSpec {
    @JsonPropertyDescription("Time between planning turns of each worker, e.g. 5s (the default); 0s: the workers plan no schedule.")
    @Pattern(Durations.PATTERN)
    private String interval;

    @JsonPropertyDescription("How far ahead occurrences are enqueued, e.g. 2m (the default); at least twice interval plus 1s.")
    @Pattern(Durations.PATTERN)
    private String horizon;

    @JsonPropertyDescription("An occurrence planned later than this after its time counts as missed and goes through its misfirePolicy, e.g. 1m (the default).")
    @Pattern(Durations.PATTERN)
    private String misfireThreshold;

    public String getInterval() {
        return interval;
    }

    public void setInterval(String interval) {
        this.interval = interval;
    }

    public String getHorizon() {
        return horizon;
    }

    public void setHorizon(String horizon) {
        this.horizon = horizon;
    }

    public String getMisfireThreshold() {
        return misfireThreshold;
    }

    public void setMisfireThreshold(String misfireThreshold) {
        this.misfireThreshold = misfireThreshold;
    }
}
