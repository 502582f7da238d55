package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;

/** An in-process handler: a custom worker image carries a TaskHandler found by ServiceLoader. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HandlerSpec {
    @JsonPropertyDescription("Fully qualified class name of the TaskHandler, when the image carries several.")
    @Pattern("^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$")
    private String className;

    public String getClassName() {
        return className;
    }

    public void setClassName(String className) {
        this.className = className;
    }
}
