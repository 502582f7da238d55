package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Hand-off to a Redis Stream, for consumer groups that do the work. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StreamSpec {
    @JsonPropertyDescription("Key of the Redis Stream that fired tasks are added to.")
    @Required
    @Size(min = 1, max = 512)
    private String key;

    @JsonPropertyDescription("Approximate most entries kept in the stream (XADD MAXLEN ~).")
    @Min(1)
    private Long maxLength;

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public Long getMaxLength() {
        return maxLength;
    }

    public void setMaxLength(Long maxLength) {
        this.maxLength = maxLength;
    }
}
