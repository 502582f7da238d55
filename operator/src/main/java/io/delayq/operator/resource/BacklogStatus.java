package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Task counts at one instant of the Redis clock. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BacklogStatus {
    @JsonPropertyDescription("Tasks waiting for a future due time.")
    private long scheduled;

    @JsonPropertyDescription("Tasks due now and not yet claimed.")
    private long due;

    @JsonPropertyDescription("Tasks claimed by a worker and not yet acknowledged.")
    private long inflight;

    @JsonPropertyDescription("Tasks in the dead-letter set.")
    private long dead;

    @JsonPropertyDescription("How long the oldest unclaimed due task has been overdue, in seconds.")
    private double oldestOverdueSeconds;

    @JsonPropertyDescription("When the backlog was read (RFC 3339).")
    private String observedAt;

    public long getScheduled() {
        return scheduled;
    }

    public void setScheduled(long scheduled) {
        this.scheduled = scheduled;
    }

    public long getDue() {
        return due;
    }

    public void setDue(long due) {
        this.due = due;
    }

    public long getInflight() {
        return inflight;
    }

    public void setInflight(long inflight) {
        this.inflight = inflight;
    }

    public long getDead() {
        return dead;
    }

    public void setDead(long dead) {
        this.dead = dead;
    }

    public double getOldestOverdueSeconds() {
        return oldestOverdueSeconds;
    }

    public void setOldestOverdueSeconds(double oldestOverdueSeconds) {
        this.oldestOverdueSeconds = oldestOverdueSeconds;
    }

    public String getObservedAt() {
        return observedAt;
    }

    public void setObservedAt(String observedAt) {
        this.observedAt = observedAt;
    }
}
