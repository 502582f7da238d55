package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One schedule as Redis has it: what it fires next, what it fired last and how that went. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScheduleStatusEntry {
    @JsonPropertyDescription("Name of the schedule.")
    private String name;

    @JsonPropertyDescription("Revision of the definition in Redis (bumped by every change).")
    private Long revision;

    @JsonPropertyDescription("True while spec.schedules[].suspend holds it.")
    private Boolean suspended;

    @JsonPropertyDescription("The next occurrence (RFC 3339); absent while suspended or past its end.")
    private String nextFireTime;

    @JsonPropertyDescription("The latest occurrence that fired (RFC 3339).")
    private String lastFireTime;

    @JsonPropertyDescription("Task id of that occurrence (delayq task inspect <id>).")
    private String lastTaskId;

    @JsonPropertyDescription("What became of that task: pending, running, retrying, succeeded or dead.")
    private String lastOutcome;

    @JsonPropertyDescription("Occurrences the misfire policy skipped because no worker ran in time.")
    private Long missed;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Long getRevision() {
        return revision;
    }

    public void setRevision(Long revision) {
        this.revision = revision;
    }

    public Boolean getSuspended() {
        return suspended;
    }

    public void setSuspended(Boolean suspended) {
        this.suspended = suspended;
    }

    public String getNextFireTime() {
        return nextFireTime;
    }

    public void setNextFireTime(String nextFireTime) {
        this.nextFireTime = nextFireTime;
    }

    public String getLastFireTime() {
        return lastFireTime;
    }

    public void setLastFireTime(String lastFireTime) {
        this.lastFireTime = lastFireTime;
    }

    public String getLastTaskId() {
        return lastTaskId;
    }

    public void setLastTaskId(String lastTaskId) {
        this.lastTaskId = lastTaskId;
    }

    public String getLastOutcome() {
        return lastOutcome;
    }

    public void setLastOutcome(String lastOutcome) {
        this.lastOutcome = lastOutcome;
    }

    public Long getMissed() {
        return missed;
    }

    public void setMissed(Long missed) {
        this.missed = missed;
    }
}
