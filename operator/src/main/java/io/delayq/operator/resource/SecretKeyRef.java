package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** One key of a Secret in the DelayQueue's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef {
    @JsonPropertyDescription("Name of the Secret.")
    @Required
    @Size(min = 1, max = 253)
    private String name;

    @JsonPropertyDescription("Key within the Secret.")
    @Required
    @Pattern("^[-._a-zA-Z0-9]+$")
    private String key;

    public SecretKeyRef() {
    }

    public SecretKeyRef(String name, String key) {
        this.name = name;
        this.key = key;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
