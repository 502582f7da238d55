package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A Secret in the DelayQueue's namespace, by name: what every Secret reference of the spec shares. Each kind adds
 * its keys with its own rule (required, defaulted, optional), which is why the key is not here; the schema of a
 * reference is this name plus those keys.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class SecretRef {
    @JsonPropertyDescription("Name of the Secret, in the DelayQueue's namespace.")
    @Required
    @Size(min = 1, max = 253)
    private String name;

    protected SecretRef() {
    }

    protected SecretRef(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
