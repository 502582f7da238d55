package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;

/** An in-process handler: a custom worker image (or a mounted volume) carries a TaskHandler found by ServiceLoader. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class HandlerSpec {
    @JsonPropertyDescription("Fully qualified class name of the TaskHandler, when the image carries several.")
    @Pattern("^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$")
    private String className;

    @JsonPropertyDescription("Where the worker looks for handler jars beyond its class path: ':'-separated absolute paths of jars and of folders of jars. Absent: /app/handlers, the stock image's place.")
    @Pattern("^/[^:]*(:/[^:]*)*$")
    @Size(max = 4096)
    private String path;

    public String getClassName() {
        return className;
    }

    public void setClassName(String className) {
        this.className = className;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }
}
