package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.delayq.claim.GroupWeights;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

import java.util.List;

/** How the claims share a shard between the groups (a task's group key) that have tasks due (docs/protocol.md, "Groups"). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class GroupsSpec {
    @JsonPropertyDescription("Weights in the claims' round robin: a group of weight 3 gets three tasks of a claim for every one of a "
            + "group of weight 1 while both have tasks due (a paying tenant ahead of a trial). A group not listed weighs 1.")
    @Size(max = GroupWeights.MAX_GROUPS)
    @ValidationRule(value = "self.all(w, self.exists_one(v, v.group == w.group))",
            message = "spec.groups.weights[].group must be unique")
    private List<GroupWeightSpec> weights;

    public List<GroupWeightSpec> getWeights() {
        return weights;
    }

    public void setWeights(List<GroupWeightSpec> weights) {
        this.weights = weights;
    }
}
