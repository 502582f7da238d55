package io.delayq.operator.resource;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One window of the due forecast. */
public class ForecastWindowStatus {
    @JsonPropertyDescription("The window's length from now, e.g. 5m.")
    private String within;

    @JsonPropertyDescription("Tasks that fall due within it (not those already due: they are the backlog).")
    private long tasks;

    public ForecastWindowStatus() {
    }

    public ForecastWindowStatus(String within, long tasks) {
        this.within = within;
        this.tasks = tasks;
    }

    public String getWithin() {
        return within;
    }

    public void setWithin(String within) {
        this.within = within;
    }

    public long getTasks() {
        return tasks;
    }

    public void setTasks(long tasks) {
        this.tasks = tasks;
    }
}
