package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.delayq.claim.GroupWeights;
import io.delayq.task.TaskGroup;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One group's weight in the claims' round robin. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GroupWeightSpec {
    /** A task group key: 1 to 64 ASCII letters, digits and - _ . : @ / (TaskGroup). */
    public static final String GROUP = "^[A-Za-z0-9_.:@/-]+$";

    @JsonPropertyDescription("The group key, as tasks carry it (1 to 64 ASCII letters, digits and - _ . : @ /).")
    @Required
    @Pattern(GROUP)
    @Size(min = 1, max = TaskGroup.MAX_BYTES)
    private String group;

    @JsonPropertyDescription("Its weight: how many tasks it gets in a claim for each one of a group of weight 1 (1 to 100).")
    @Required
    @Min(1)
    @Max(GroupWeights.MAX_WEIGHT)
    private Integer weight;

    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    public Integer getWeight() {
        return weight;
    }

    public void setWeight(Integer weight) {
        this.weight = weight;
    }
}
