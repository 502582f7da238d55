package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.List;

/** Safety facts about the Redis server; "unknown" where an ACL refused the question. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RedisStatus {
    @JsonPropertyDescription("Redis URL without credentials.")
    private String url;

    @JsonPropertyDescription("Server version.")
    private String version;

    @JsonPropertyDescription("maxmemory-policy; anything but noeviction lets Redis evict queue data.")
    private String maxmemoryPolicy;

    @JsonPropertyDescription("rdb, aof, rdb+aof, off or unknown.")
    private String persistence;

    @JsonPropertyDescription("Findings that do not stop the queue but deserve a look.")
    private List<String> warnings;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getVersion() {
        return version;
    }

    public void setVersion(String version) {
        this.version = version;
    }

    public String getMaxmemoryPolicy() {
        return maxmemoryPolicy;
    }

    public void setMaxmemoryPolicy(String maxmemoryPolicy) {
        this.maxmemoryPolicy = maxmemoryPolicy;
    }

    public String getPersistence() {
        return persistence;
    }

    public void setPersistence(String persistence) {
        this.persistence = persistence;
    }

    public List<String> getWarnings() {
        return warnings;
    }

    public void setWarnings(List<String> warnings) {
        this.warnings = warnings;
    }
}
