package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.delayq.claim.GroupCaps;
import io.delayq.claim.GroupWeights;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.List;

/**
 * How the claims share a shard between the groups (a task's group key) that have tasks due, and how many of a group's tasks
 * may run at once across the fleet (docs/protocol.md, "Groups").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GroupsSpec {
    @JsonPropertyDescription("Weights in the claims' round robin: a group of weight 3 gets three tasks of a claim for every one of a "
            + "group of weight 1 while both have tasks due (a paying tenant ahead of a trial). A group not listed weighs 1.")
    @Size(max = GroupWeights.MAX_GROUPS)
    @ValidationRule(value = "self.all(w, self.exists_one(v, v.group == w.group))",
            message = "spec.groups.weights[].group must be unique")
    private List<GroupWeightSpec> weights;

    @JsonPropertyDescription("The most tasks of one group running at once across the whole fleet (1 = one at a time per group: "
            + "a payout per account, a sync per tenant). A claim hands out a group's task only against a permit kept in Redis, "
            + "given back when the task's handler returns and expiring soon after the lease of a worker that died. Unset: no cap.")
    @Min(1)
    @Max(GroupCaps.MAX_CAP)
    private Integer maxRunning;

    @JsonPropertyDescription("Caps of named groups (a webhook target that takes 5 calls at once), over maxRunning; they apply "
            + "also when maxRunning is not set.")
    @Size(max = GroupCaps.MAX_GROUPS)
    @ValidationRule(value = "self.all(c, self.exists_one(v, v.group == c.group))",
            message = "spec.groups.maxRunningOverrides[].group must be unique")
    private List<GroupCapSpec> maxRunningOverrides;

    public List<GroupWeightSpec> getWeights() {
        return weights;
    }

    public void setWeights(List<GroupWeightSpec> weights) {
        this.weights = weights;
    }

    public Integer getMaxRunning() {
        return maxRunning;
    }

    public void setMaxRunning(Integer maxRunning) {
        this.maxRunning = maxRunning;
    }

    public List<GroupCapSpec> getMaxRunningOverrides() {
        return maxRunningOverrides;
    }

    public void setMaxRunningOverrides(List<GroupCapSpec> maxRunningOverrides) {
        this.maxRunningOverrides = maxRunningOverrides;
    }
}
