package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.delayq.claim.GroupCaps;
import io.delayq.task.TaskGroup;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One group's own cap of running tasks across the fleet. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GroupCapSpec {
    @JsonPropertyDescription("The group key, as tasks carry it (1 to 64 ASCII letters, digits and - _ . : @ /).")
    @Required
    @Pattern(GroupWeightSpec.GROUP)
    @Size(min = 1, max = TaskGroup.MAX_BYTES)
    private String group;

    @JsonPropertyDescription("The most of its tasks running at once across the whole fleet (1 = one at a time).")
    @Required
    @Min(1)
    @Max(GroupCaps.MAX_CAP)
    private Integer maxRunning;

    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    public Integer getMaxRunning() {
        return maxRunning;
    }

    public void setMaxRunning(Integer maxRunning) {
        this.maxRunning = maxRunning;
    }
}
