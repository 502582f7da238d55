package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** One key of a Secret in the DelayQueue's namespace, named by the user. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SecretKeyRef extends SecretRef {
    @JsonPropertyDescription("Key within the Secret.")
    @Required
    @Pattern(Patterns.SECRET_KEY)
    private String key;

    public SecretKeyRef() {
    }

    public SecretKeyRef(String name, String key) {
        super(name);
        this.key = key;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
